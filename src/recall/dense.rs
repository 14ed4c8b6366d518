//! The dense side's vectors as one row-major `f32` matrix in blocks of contiguous rows, built
//! once per snapshot (cache.rs), so a query reads memory front to back instead of chasing one
//! heap allocation per episode, and the threads of one query share the blocks ([`Dots`]).
//!
//! A message split into several episodes has one message vector (migration 10's
//! `context_vector`, the same bytes on each of its episodes' rows): it is stored once, and each
//! of those episodes points at its row, so a query takes its cosine once. Every row's dot
//! product with the query is computed by the same [`dot`] the per-episode vectors used, in the
//! same order, so scores are bit for bit those of scoring each episode's own copy.

use std::collections::HashMap;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Rows from which [`Matrix::dots`] splits the rows over the cores. A row is 384 `f32`
/// (1.5 KiB); 10,000 rows took 1.6–1.8 ms on one core of the 2-core machine (docs/benchmarks.md,
/// "Speed"), so 4,096 rows take about 0.7 ms, well above the tens of microseconds a thread
/// costs to start.
pub(crate) const PARALLEL_FROM: usize = 4_096;

/// Rows per block: each block is one allocation read front to back (1.5 MiB at 384
/// dimensions), and the unit of work the threads of one query share. Blocks of a fixed size
/// grow the matrix without the copies (and the transient double memory) of one growing `Vec`.
const BLOCK_ROWS: usize = 1_024;

/// Vectors of one length, one per row, row-major in blocks of [`BLOCK_ROWS`] contiguous rows.
#[derive(Debug, Default)]
pub(crate) struct Matrix {
    /// Length of every row (the model's dimensions).
    dims: usize,
    /// Number of rows.
    rows: usize,
    /// `BLOCK_ROWS × dims` values each, the last one possibly shorter.
    blocks: Vec<Vec<f32>>,
}

impl Matrix {
    /// An empty matrix of rows of `dims` values.
    pub(crate) fn new(dims: usize) -> Self {
        Matrix {
            dims,
            ..Matrix::default()
        }
    }

    /// Number of rows.
    #[cfg(test)]
    pub(crate) fn rows(&self) -> usize {
        self.rows
    }

    /// Appends `v` as a new row and returns its index; `None` (nothing stored) when its length
    /// is not the matrix's, as a vector of another model could never be compared with the
    /// query, or when the rows would outgrow a `u32` index.
    pub(crate) fn push(&mut self, v: &[f32]) -> Option<u32> {
        if v.len() != self.dims || self.dims == 0 {
            return None;
        }
        let row = u32::try_from(self.rows).ok().filter(|r| *r < u32::MAX)?;
        let block = match self.blocks.last_mut() {
            Some(b) if b.len() < BLOCK_ROWS * self.dims => b,
            _ => {
                self.blocks.push(Vec::with_capacity(BLOCK_ROWS * self.dims));
                self.blocks.last_mut()?
            }
        };
        block.extend_from_slice(v);
        self.rows += 1;
        Some(row)
    }

    /// Row `row`, empty when out of range.
    pub(crate) fn row(&self, row: u32) -> &[f32] {
        let (block, at) = (row as usize / BLOCK_ROWS, row as usize % BLOCK_ROWS);
        self.blocks
            .get(block)
            .and_then(|b| b.get(at * self.dims..(at + 1) * self.dims))
            .unwrap_or(&[])
    }

    /// The dot product of `q` with every row, in row order; empty when `q`'s length is not the
    /// rows' (then no row can be compared with it). From [`PARALLEL_FROM`] rows on, the blocks
    /// are shared out over the cores ([`Dots`]); each value is computed exactly as on one
    /// thread, so the split never changes a result.
    pub(crate) fn dots(&self, q: &[f32]) -> Vec<f32> {
        let dots = Dots::new(self);
        dots.set_query(Some(q.to_vec()));
        let helpers = if self.rows < PARALLEL_FROM {
            0
        } else {
            cores() - 1
        };
        std::thread::scope(|s| {
            let threads: Vec<_> = (0..helpers)
                .filter_map(|_| {
                    std::thread::Builder::new()
                        .spawn_scoped(s, || dots.help())
                        .ok()
                })
                .collect();
            let mut parts = vec![dots.help()];
            parts.extend(threads.into_iter().filter_map(|t| t.join().ok()));
            dots.finish(parts)
        })
    }
}

/// The dot products of one query with every row of a [`Matrix`], computed by whichever
/// threads have time: each thread that calls [`Dots::help`] takes the next block not yet
/// taken until none is left, so a thread that finished other work (BM25) joins in at once.
/// Every row is computed by the same [`dot`], so who computed it never changes a value.
#[derive(Debug)]
pub(crate) struct Dots<'m> {
    matrix: &'m Matrix,
    /// The query, once known; `None` when there is none (its embedding failed).
    query: OnceLock<Option<Vec<f32>>>,
    /// The next block to take.
    next: AtomicUsize,
}

/// The values of one block: (block index, one value per row).
pub(crate) type Part = Vec<(usize, Vec<f32>)>;

impl<'m> Dots<'m> {
    /// The dot products of `matrix` with a query to come.
    pub(crate) fn new(matrix: &'m Matrix) -> Self {
        Dots {
            matrix,
            query: OnceLock::new(),
            next: AtomicUsize::new(0),
        }
    }

    /// Gives the query (`None`: there will be none, and helpers stop). Only the first call
    /// counts.
    pub(crate) fn set_query(&self, q: Option<Vec<f32>>) {
        let _ = self.query.set(q);
    }

    /// Waits for the query, then computes blocks until none is left. Whoever calls this must
    /// be sure [`Dots::set_query`] is called, or it waits for ever ([`QueryGuard`]).
    pub(crate) fn help(&self) -> Part {
        let mut out = Vec::new();
        let Some(q) = self.query.wait() else {
            return out;
        };
        if q.len() != self.matrix.dims {
            return out;
        }
        loop {
            let b = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(block) = self.matrix.blocks.get(b) else {
                return out;
            };
            out.push((b, self.block(block, q)));
        }
    }

    fn block(&self, block: &[f32], q: &[f32]) -> Vec<f32> {
        block
            .chunks_exact(self.matrix.dims)
            .map(|r| dot(q, r))
            .collect()
    }

    /// Every row's value in row order, from the blocks the helpers computed; a block none
    /// computed (a helper that stopped early) is computed here. Empty without a query of the
    /// rows' length.
    pub(crate) fn finish(&self, parts: Vec<Part>) -> Vec<f32> {
        let Some(Some(q)) = self.query.get() else {
            return Vec::new();
        };
        if q.len() != self.matrix.dims {
            return Vec::new();
        }
        let mut blocks: Vec<Option<Vec<f32>>> = vec![None; self.matrix.blocks.len()];
        for (b, values) in parts.into_iter().flatten() {
            if let Some(slot) = blocks.get_mut(b) {
                *slot = Some(values);
            }
        }
        let mut out = Vec::with_capacity(self.matrix.rows);
        for (block, values) in self.matrix.blocks.iter().zip(blocks) {
            match values {
                Some(v) => out.extend(v),
                None => out.extend(self.block(block, q)),
            }
        }
        out
    }
}

/// Sets a [`Dots`]'s query to `None` when dropped before one was set (an error or a panic on
/// the way), so no helper waits for ever.
#[derive(Debug)]
pub(crate) struct QueryGuard<'d, 'm>(pub(crate) &'d Dots<'m>);

impl Drop for QueryGuard<'_, '_> {
    fn drop(&mut self) {
        self.0.set_query(None);
    }
}

/// The cores this process may use, asked once.
pub(crate) fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// Builds a [`Matrix`] of episode vectors and message vectors, each message's vector once.
#[derive(Debug)]
pub(crate) struct Builder {
    matrix: Matrix,
    /// The row of each message's vector, by message id.
    messages: HashMap<i64, u32>,
}

impl Builder {
    /// A builder of rows of `dims` values.
    pub(crate) fn new(dims: usize) -> Self {
        Builder {
            matrix: Matrix::new(dims),
            messages: HashMap::new(),
        }
    }

    /// The row of an episode's own vector.
    pub(crate) fn own(&mut self, v: Option<&[f32]>) -> Option<u32> {
        self.matrix.push(v?)
    }

    /// The row of the vector of message `message`: the row already stored for that message
    /// when it holds the same values (it always does unless the message was re-embedded
    /// between two rows being written), else a new one.
    pub(crate) fn message(&mut self, message: i64, v: Option<&[f32]>) -> Option<u32> {
        let v = v?;
        if let Some(&row) = self.messages.get(&message)
            && self.matrix.row(row) == v
        {
            return Some(row);
        }
        let row = self.matrix.push(v)?;
        self.messages.entry(message).or_insert(row);
        Some(row)
    }

    /// The finished matrix.
    pub(crate) fn finish(self) -> Matrix {
        self.matrix
    }
}

/// Dot product of two vectors of equal length (the cosine of unit vectors), in eight lanes so
/// the compiler can use SIMD: the straight sum is one long dependency chain. Each lane sums its
/// products in order and the lanes are added last, so the result depends only on the values,
/// never on where they are stored.
pub(crate) fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0.0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        for j in 0..8 {
            acc[j] += x[j] * y[j];
        }
    }
    acc.iter().sum::<f32>() + tail
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vector(seed: usize, dims: usize) -> Vec<f32> {
        (0..dims)
            .map(|j| ((seed * 7 + j) as f32 * 0.013).cos())
            .collect()
    }

    #[test]
    fn dot_matches_the_plain_sum() {
        // 19 values: two full lanes of 8 and a tail of 3, so both paths add up.
        let a: Vec<f32> = (0..19).map(|i| i as f32 * 0.1).collect();
        let b: Vec<f32> = (0..19).map(|i| 1.0 - i as f32 * 0.05).collect();
        let plain: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        assert!(
            (dot(&a, &b) - plain).abs() < 1e-4,
            "lanes and tail must add up to the same dot product"
        );
    }

    #[test]
    fn matrix_dots_equal_each_vectors_own_dot_bit_for_bit() {
        // More rows than PARALLEL_FROM, and a count the cores do not divide, so a machine of
        // 2 or more cores takes the split path: every row's value must come back at its own
        // index, bit for bit what `dot` gives on that vector held on its own (the scores
        // recall had before the matrix).
        let dims = 384;
        let q = vector(99_991, dims);
        let vectors: Vec<Vec<f32>> = (0..PARALLEL_FROM + 1001).map(|i| vector(i, dims)).collect();
        let mut m = Matrix::new(dims);
        for (i, v) in vectors.iter().enumerate() {
            assert_eq!(m.push(v), Some(i as u32));
        }
        let own: Vec<u32> = vectors.iter().map(|v| dot(&q, v).to_bits()).collect();
        let got: Vec<u32> = m.dots(&q).iter().map(|d| d.to_bits()).collect();
        assert_eq!(got, own, "split over cores");
        let mut small = Matrix::new(dims);
        for v in &vectors[..10] {
            small.push(v);
        }
        let got: Vec<u32> = small.dots(&q).iter().map(|d| d.to_bits()).collect();
        assert_eq!(got, own[..10], "one thread");
    }

    #[test]
    fn threads_sharing_the_blocks_give_the_values_of_one_thread() {
        // Three helpers, one of them starting only once the query is given (as the
        // embedding thread does) and one after the first two took blocks (as recall's own
        // thread does after BM25): every row's value at its index, bit for bit `dot`.
        let dims = 384;
        let q = vector(12_345, dims);
        let vectors: Vec<Vec<f32>> = (0..3 * BLOCK_ROWS + 17).map(|i| vector(i, dims)).collect();
        let mut m = Matrix::new(dims);
        for v in &vectors {
            m.push(v);
        }
        let one: Vec<u32> = vectors.iter().map(|v| dot(&q, v).to_bits()).collect();
        let dots = Dots::new(&m);
        let got = std::thread::scope(|s| {
            let early = s.spawn(|| dots.help());
            let setter = s.spawn(|| {
                dots.set_query(Some(q.clone()));
                dots.help()
            });
            let parts = vec![early.join().unwrap(), setter.join().unwrap(), dots.help()];
            dots.finish(parts)
        });
        let got: Vec<u32> = got.iter().map(|d| d.to_bits()).collect();
        assert_eq!(got, one);
        // A block no helper computed (a helper that stopped) is computed by `finish`.
        let dots = Dots::new(&m);
        dots.set_query(Some(q.clone()));
        let mut part = dots.help();
        part.remove(1);
        let got: Vec<u32> = dots
            .finish(vec![part])
            .iter()
            .map(|d| d.to_bits())
            .collect();
        assert_eq!(got, one, "the missing block is filled in");
    }

    #[test]
    fn a_failed_query_releases_the_helpers() {
        // The embedding thread fails (here: panics) before it gives the query: its guard
        // gives `None`, so a helper waiting for the query returns with nothing instead of
        // waiting for ever, and there are no values.
        let mut m = Matrix::new(4);
        m.push(&[1.0, 0.0, 0.0, 0.0]);
        let dots = Dots::new(&m);
        std::thread::scope(|s| {
            let failing = s.spawn(|| {
                let _release = QueryGuard(&dots);
                panic!("the model failed");
            });
            assert!(dots.help().is_empty());
            assert!(failing.join().is_err());
        });
        assert!(dots.finish(vec![]).is_empty());
    }

    #[test]
    fn a_message_vector_is_stored_once_and_scores_as_each_copy_did() {
        // Three episodes of message 7 carry the same message vector, one of message 8 its own:
        // two message rows, and every episode's message cosine is that of its own copy.
        let dims = 16;
        let q = vector(5, dims);
        let (m7, m8) = (vector(70, dims), vector(80, dims));
        let mut b = Builder::new(dims);
        let rows: Vec<Option<u32>> = [(7, &m7), (7, &m7), (8, &m8), (7, &m7)]
            .iter()
            .map(|(id, v)| b.message(*id, Some(v.as_slice())))
            .collect();
        assert_eq!(rows, [Some(0), Some(0), Some(1), Some(0)]);
        // A message re-embedded between two rows keeps both values apart.
        let changed = vector(71, dims);
        assert_eq!(b.message(7, Some(&changed)), Some(2));
        assert_eq!(b.message(7, None), None, "no vector, no row");
        let m = b.finish();
        assert_eq!(m.rows(), 3);
        let dots = m.dots(&q);
        assert_eq!(dots[0].to_bits(), dot(&q, &m7).to_bits());
        assert_eq!(dots[1].to_bits(), dot(&q, &m8).to_bits());
        assert_eq!(dots[2].to_bits(), dot(&q, &changed).to_bits());
    }

    #[test]
    fn vectors_of_another_length_are_left_out() {
        // A vector of another model (or a truncated blob) can never meet the query: no row.
        let mut m = Matrix::new(4);
        assert_eq!(m.push(&[1.0, 0.0, 0.0]), None);
        assert_eq!(m.push(&[1.0, 0.0, 0.0, 0.0]), Some(0));
        assert_eq!(m.rows(), 1);
        assert!(m.dots(&[1.0, 0.0]).is_empty(), "a query of another length");
        assert_eq!(m.dots(&[0.5, 0.0, 0.0, 0.0]), vec![0.5]);
    }
}
