//! The threshold sweep as a PNG: the recall-against-abstention curve the default threshold is
//! picked from. Drawn with plotters' bitmap backend and no text (no font files are needed or
//! fetched): x is the threshold from 0 to 1.2 (a tick every 0.1, a longer one every 0.5),
//! y from 0 to 1 (gridlines every 0.1). Blue: answerable questions that still get a result;
//! red: unanswerable questions that get none; green: evidence recall@10 after the threshold.

use std::path::Path;

use plotters::prelude::*;

use super::retrieval::SweepPoint;
use crate::error::{Error, Result};

/// Writes `points` as an 800×500 PNG at `path`.
/// Errors: [`Error::InvalidInput`] carrying the drawing or encoding error.
pub fn sweep_png(points: &[SweepPoint], path: &Path) -> Result<()> {
    draw(points, path)
        .map_err(|e| Error::InvalidInput(format!("cannot draw {}: {e}", path.display())))
}

fn draw(points: &[SweepPoint], path: &Path) -> std::result::Result<(), Box<dyn std::error::Error>> {
    let (w, h) = (800i32, 500i32);
    let (left, right, top, bottom) = (50, 20, 20, 40);
    let root = BitMapBackend::new(path, (w as u32, h as u32)).into_drawing_area();
    root.fill(&WHITE)?;
    let x = |t: f64| left + ((t / 1.2) * f64::from(w - left - right)) as i32;
    let y = |v: f64| h - bottom - (v.clamp(0.0, 1.0) * f64::from(h - top - bottom)) as i32;
    let grey = RGBColor(220, 220, 220);
    for i in 0..=10 {
        let v = f64::from(i) / 10.0;
        root.draw(&PathElement::new(
            vec![(x(0.0), y(v)), (x(1.2), y(v))],
            grey,
        ))?;
    }
    for i in 0..=12 {
        let t = f64::from(i) / 10.0;
        let len = if i % 5 == 0 { 12 } else { 6 };
        root.draw(&PathElement::new(
            vec![(x(t), y(0.0)), (x(t), y(0.0) + len)],
            BLACK,
        ))?;
    }
    root.draw(&PathElement::new(
        vec![(x(0.0), y(0.0)), (x(1.2), y(0.0))],
        BLACK,
    ))?;
    root.draw(&PathElement::new(
        vec![(x(0.0), y(0.0)), (x(0.0), y(1.0))],
        BLACK,
    ))?;
    type Series = (fn(&SweepPoint) -> f64, RGBColor);
    let series: [Series; 3] = [
        (|p| p.answered_rate, BLUE),
        (|p| p.abstain_rate, RED),
        (|p| p.recall_at_10, RGBColor(0, 150, 0)),
    ];
    for (value, colour) in series {
        let line: Vec<(i32, i32)> = points
            .iter()
            .map(|p| (x(p.threshold), y(value(p))))
            .collect();
        root.draw(&PathElement::new(line, colour.stroke_width(2)))?;
    }
    root.present()?;
    Ok(())
}
