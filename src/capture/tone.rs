//! Intensity against a speaker's own baseline tone (seed 004, the amygdala stage): capitals,
//! exclamation marks and emphatic words, compared with this speaker's running average, so a
//! habitual shouter's normal message is not a spike ("a normally terse person writing in
//! capitals is a spike; the same words from someone who always writes like that are not").
//!
//! A message's [`Tone`] folds into one *loudness* in `[0, 1]`. A [`ToneBaseline`] keeps the
//! running mean and spread of that loudness per speaker (Welford's online algorithm), and
//! [`ToneBaseline::intensity`] is how far a message's loudness lies above that speaker's usual
//! range, on a saturating scale: `1 − exp(−excess / spread)`. A speaker with no history is
//! judged against a cautious prior (middling loudness, wide spread), so the first message is
//! not a spike unless it is very loud.

use serde::{Deserialize, Serialize};

/// The surface signals of one message's tone.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Tone {
    /// Share of words (two letters or more, known acronyms aside) written all in capitals, in
    /// `[0, 1]`.
    pub caps: f64,
    /// Exclamation marks, capped at 3.
    pub exclamations: f64,
    /// Emphatic words in English, Swedish or Danish ("never", "OMG", "äntligen", "vildt"),
    /// capped at 3.
    #[serde(default)]
    pub emphasis: f64,
}

/// Acronyms in capitals are spelling, not shouting.
const ACRONYMS: &[&str] = &[
    "ok", "usa", "eu", "uk", "us", "pdf", "ceo", "cto", "cfo", "hr", "it", "tv", "pc", "ai", "api",
    "url", "faq", "id", "nhs", "bbc", "gp", "diy", "sms", "cv", "ikea", "vat", "eta", "nyc", "sas",
    "sj", "dsb", "moms", "ica", "pm", "am", "gps", "wifi", "usb",
];

/// Emphatic words; a word starting with an intensifying prefix counts too ("jättebra").
#[rustfmt::skip]
const EMPHATIC: &[&str] = &[
    "never", "always", "absolutely", "totally", "seriously", "really", "huge", "amazing", "awful",
    "terrible", "horrible", "furious", "hate", "omg", "wtf", "ugh", "finally", "incredible",
    "unbelievable", "urgent", "asap", "insane", "crazy", "disaster", "worst", "aldrig", "alltid",
    "verkligen", "otroligt", "fruktansvärt", "hemskt", "äntligen", "akut", "sjukt", "galet",
    "katastrof", "värsta", "typiskt", "altid", "virkelig", "utroligt", "frygteligt", "forfærdeligt",
    "endelig", "vildt", "sindssygt", "katastrofe", "værste", "totalt", "typisk",
];
const INTENSIFIERS: &[&str] = &["jätte", "super", "mega", "kæmpe", "pisse", "skit"];

impl Tone {
    /// Measures the tone of a text.
    pub fn of(text: &str) -> Tone {
        let mut words = 0usize;
        let mut shouted = 0usize;
        let mut emphatic = 0usize;
        for raw in text.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’')) {
            let core = raw.trim_end_matches("'s").trim_end_matches("’s");
            let letters: Vec<char> = core.chars().filter(|c| c.is_alphabetic()).collect();
            if letters.len() < 2 {
                continue;
            }
            words += 1;
            let low = core.to_lowercase();
            if letters.iter().all(|c| c.is_uppercase()) && !ACRONYMS.contains(&low.as_str()) {
                shouted += 1;
            }
            let intensified = INTENSIFIERS
                .iter()
                .any(|p| low.len() > p.len() + 2 && low.starts_with(p));
            if EMPHATIC.contains(&low.as_str()) || intensified {
                emphatic += 1;
            }
        }
        let bangs = text.chars().filter(|&c| c == '!').count();
        Tone {
            caps: if words == 0 {
                0.0
            } else {
                shouted as f64 / words as f64
            },
            exclamations: (bangs as f64).min(3.0),
            emphasis: (emphatic as f64).min(3.0),
        }
    }

    /// All signals folded into one number in `[0, 1]`: capitals weigh half (saturating when
    /// half the words are shouted), exclamation marks 0.35 (at three), emphatic words 0.15 (at
    /// two).
    pub fn loudness(&self) -> f64 {
        let caps = (self.caps / 0.5).min(1.0);
        let bangs = (self.exclamations / 3.0).min(1.0);
        let emphasis = (self.emphasis / 2.0).min(1.0);
        (0.5 * caps + 0.35 * bangs + 0.15 * emphasis).clamp(0.0, 1.0)
    }
}

/// A speaker's running tone, kept in the store per actor (serialised as JSON; fields added
/// later default to zero so older rows still load).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct ToneBaseline {
    /// Messages seen.
    pub messages: u64,
    /// Running mean of [`Tone::caps`].
    pub mean_caps: f64,
    /// Running mean of [`Tone::exclamations`].
    pub mean_exclamations: f64,
    /// Running mean of [`Tone::emphasis`].
    #[serde(default)]
    pub mean_emphasis: f64,
    /// Running mean of [`Tone::loudness`].
    #[serde(default)]
    pub mean_loudness: f64,
    /// Sum of squared deviations of loudness from its mean (Welford), for the spread.
    #[serde(default)]
    pub m2_loudness: f64,
}

/// Loudness assumed for a speaker we know nothing about.
const PRIOR_LOUDNESS: f64 = 0.15;
/// Spread assumed for a speaker we know nothing about: wide, so a first message needs to be
/// very loud to count.
const PRIOR_SPREAD: f64 = 0.6;
/// How many messages the prior is worth.
const PRIOR_WEIGHT: f64 = 0.25;
/// The smallest spread: even a perfectly even writer varies a little.
const MIN_SPREAD: f64 = 0.05;
/// Loudness above the usual range that still counts as noise (one acronym, one "!").
const DEAD_ZONE: f64 = 0.05;

impl ToneBaseline {
    /// Intensity of `tone` against this baseline, in `[0, 1]`: 0 at or below the speaker's
    /// usual range (mean plus one standard deviation), rising towards 1 as the message gets
    /// louder than that, measured in units of the speaker's spread. With no history the
    /// baseline is a cautious prior: full capitals and "!!!" reach about 0.6, not a peak.
    pub fn intensity(&self, tone: &Tone) -> f64 {
        let n = self.messages as f64;
        let observed_sd = if self.messages >= 2 {
            (self.m2_loudness / (n - 1.0)).max(0.0).sqrt()
        } else {
            0.0
        };
        let mean = (n * self.mean_loudness + PRIOR_WEIGHT * PRIOR_LOUDNESS) / (n + PRIOR_WEIGHT);
        let spread =
            MIN_SPREAD + (n * observed_sd + PRIOR_WEIGHT * PRIOR_SPREAD) / (n + PRIOR_WEIGHT);
        let usual_top = mean + observed_sd;
        let excess = (tone.loudness() - usual_top - DEAD_ZONE).max(0.0);
        let intensity = 1.0 - (-excess / spread).exp();
        if intensity.is_finite() {
            intensity.clamp(0.0, 1.0)
        } else {
            0.0
        }
    }

    /// Folds one more message into the running averages.
    pub fn update(&mut self, tone: &Tone) {
        self.messages += 1;
        let n = self.messages as f64;
        self.mean_caps += (tone.caps - self.mean_caps) / n;
        self.mean_exclamations += (tone.exclamations - self.mean_exclamations) / n;
        self.mean_emphasis += (tone.emphasis - self.mean_emphasis) / n;
        let loudness = tone.loudness();
        let delta = loudness - self.mean_loudness;
        self.mean_loudness += delta / n;
        self.m2_loudness += delta * (loudness - self.mean_loudness);
    }

    /// A baseline built from a speaker's earlier messages, oldest first.
    pub fn from_history<'a>(texts: impl IntoIterator<Item = &'a str>) -> ToneBaseline {
        let mut baseline = ToneBaseline::default();
        for text in texts {
            baseline.update(&Tone::of(text));
        }
        baseline
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::weigh;
    use crate::model::ActKind;
    use proptest::prelude::*;

    const CALM: [&str; 3] = [
        "Could you move the dentist to Tuesday, please?",
        "Thanks, that works.",
        "I'll check the invoices later.",
    ];
    const SHOUTER: [&str; 3] = [
        "WHAT!!! NO WAY!!!",
        "Move it to TUESDAY's slot!!!",
        "THANKS!!! LOVE IT!!!",
    ];
    const SHOUT: &str = "STOP. The dentist is on THURSDAY, not Tuesday!!!";

    #[test]
    fn the_same_words_spike_for_a_calm_writer_but_not_for_a_habitual_shouter() {
        let calm = ToneBaseline::from_history(CALM).intensity(&Tone::of(SHOUT));
        let loud = ToneBaseline::from_history(SHOUTER).intensity(&Tone::of(SHOUT));
        assert!(
            weigh(ActKind::Correction, calm).get()
                > ActKind::Correction.salience_floor().get() + 0.05,
            "seed 004: a usually calm writer in capitals is a spike, enough to lift even a correction: {calm}"
        );
        assert!(
            loud < 0.1,
            "seed 004: the same words are a habitual shouter's normal tone: {loud}"
        );
        let calm_calm = ToneBaseline::from_history(CALM)
            .intensity(&Tone::of("The dentist is on Thursday, not Tuesday."));
        assert!(
            calm_calm < 0.05,
            "a calm writer's calm message is no spike: {calm_calm}"
        );
    }

    #[test]
    fn a_first_message_is_judged_moderately() {
        let fresh = ToneBaseline::default();
        let shout = fresh.intensity(&Tone::of("OUR FLAT IS FLOODED!!! CALL THE LANDLORD!!!"));
        assert!(
            (0.3..0.8).contains(&shout),
            "with no history full capitals and !!! count some but are no certain peak: {shout}"
        );
        let mild = fresh.intensity(&Tone::of("Great news, the offer came through!"));
        assert!(
            mild < 0.05,
            "one exclamation mark from an unknown writer is not a spike: {mild}"
        );
    }

    #[test]
    fn acronyms_are_not_shouting_but_possessive_capitals_are() {
        assert_eq!(
            Tone::of("The PDF from the EU is OK.").caps,
            0.0,
            "acronyms spell, they do not shout"
        );
        assert!(
            Tone::of("Put it on TUESDAY's list").caps > 0.0,
            "`TUESDAY's` is a shouted word"
        );
    }

    #[test]
    fn a_stored_baseline_from_before_the_new_fields_still_loads() {
        let old = r#"{"messages":3,"mean_caps":0.1,"mean_exclamations":1.0}"#;
        let parsed: Result<ToneBaseline, _> = serde_json::from_str(old);
        assert!(
            parsed.is_ok(),
            "baselines stored per actor must keep loading: {parsed:?}"
        );
    }

    proptest! {
        /// Seed 004: salience is the higher of the act's floor and the intensity, so it lies in
        /// [0, 1] and never below the floor, whatever the text and history.
        #[test]
        fn salience_is_bounded_and_never_below_the_floor(
            history in proptest::collection::vec("\\PC{0,60}", 0..6),
            text in "\\PC{0,80}",
            k in 0usize..6,
        ) {
            let baseline = ToneBaseline::from_history(history.iter().map(String::as_str));
            let intensity = baseline.intensity(&Tone::of(&text));
            prop_assert!((0.0..=1.0).contains(&intensity), "intensity in [0, 1]: {}", intensity);
            let kind = ActKind::ALL[k];
            let salience = weigh(kind, intensity).get();
            prop_assert!((0.0..=1.0).contains(&salience), "salience in [0, 1]: {}", salience);
            prop_assert!(salience >= kind.salience_floor().get(), "never below the floor of {}", kind);
        }
    }
}
