//! Secrets in memory text: credentials (a PIN, a password, a door code, an API key), payment
//! card numbers and national identity numbers (Swedish personnummer, Danish CPR), found so
//! that text shown to an assistant *unasked* can hide them.
//!
//! Seed 003 ("Hantering av personidentifierande information"): personal data such as
//! financial details is to be marked and handled with care. The session-start block
//! ([`crate::session_start`]) goes into every conversation, whatever it is about, so a stored
//! "my bank PIN is 4821" would reach every prompt; there [`mask`] shows it as
//! "my bank PIN is [secret: recall it by name]". The memory itself is kept as written: the
//! user sees it in the panel and `minne list`, and a recall that asks for it ("what is my
//! bank PIN?") returns it, because then the user asked.
//!
//! What counts as a secret:
//! - the value after a credential word ([`CREDENTIALS`], with Swedish and Danish definite
//!   forms: "lösenordet", "koden"): after a linking word ("is", "är", "er", ":", "=") within
//!   a few words of it ("the password for Netflix is …"), or straight after it when it looks
//!   like one (holds a digit: "PIN 4821"). A door, alarm or other "code" ([`CODE_WORDS`]) only
//!   counts when its value holds a digit ("the code review is tomorrow" is no secret);
//! - a payment card number: 13 to 19 digits, in groups or not, that pass the Luhn check;
//! - a personnummer or CPR number: `YYMMDD-NNNN`, `YYYYMMDD-NNNN` or `DDMMYY-NNNN` (the
//!   hyphen, or a personnummer's `+`, is what tells it from any other long number);
//! - an access token: a known key prefix (`sk-`, `ghp_`, `github_pat_`, `xox`, `AKIA`,
//!   `glpat-`, `AIza`) followed by at least 16 characters, or 32 or more characters of letters,
//!   digits, `_` and `-` that mix upper case, lower case and digits (a lower-case hex hash
//!   such as a commit id does not).
//!
//! A masked value keeps the punctuation around it, so the sentence still reads.

use std::borrow::Cow;

/// What a secret is shown as.
pub const MASK: &str = "[secret: recall it by name]";

/// Credential words whose value is a secret whatever it looks like, lower case. A word may
/// carry an English plural or a Swedish or Danish definite ending ([`ENDINGS`]).
pub const CREDENTIALS: &[&str] = &[
    "pin",
    "pincode",
    "pin-code",
    "pinkod",
    "pinkode",
    "password",
    "passwd",
    "passcode",
    "passphrase",
    "lösenord",
    "losenord",
    "lösen",
    "adgangskode",
    "kodeord",
    "løsen",
    "cvv",
    "cvc",
    "puk",
    "apikey",
    "api-key",
    "api-nyckel",
    "api-nøgle",
];

/// Words that make the next word a credential word ("API key", "secret key", "access
/// token"), and the words they make one of.
const KEY_PREFIXES: &[&str] = &["api", "secret", "access", "private", "auth", "recovery"];
const KEY_WORDS: &[&str] = &["key", "token", "nyckel", "nøgle", "nyckeln", "nøglen"];

/// Code words ("door code", "portkod"): their value counts as a secret only when it holds a
/// digit. Lower case, definite forms through [`ENDINGS`].
pub const CODE_WORDS: &[&str] = &[
    "code",
    "kod",
    "kode",
    "portkod",
    "dörrkod",
    "larmkod",
    "dørkode",
    "alarmkode",
    "portkode",
    "wifi",
    "wi-fi",
];

/// Words for "number" that, as the last part of a compound with a credential or code word
/// ("PIN-nummer", "PIN-number"), name its value as the credential does.
const NUMBER_WORDS: &[&str] = &["number", "nummer", "numret", "nummeret"];

/// Endings a credential or code word may carry: English plural, Swedish and Danish definite
/// singular and plural.
const ENDINGS: &[&str] = &["", "s", "et", "en", "n", "er", "erna", "ene", "ar", "arna"];

/// Words that link a credential word to its value.
const LINKS: &[&str] = &[
    "is",
    "was",
    "are",
    "=",
    ":",
    "är",
    "var",
    "blev",
    "er",
    "now",
    "nu",
    "still",
    "fortfarande",
    "stadig",
    "stadigvæk",
];

/// Words that may stand between a credential word and its linking word or value ("the
/// password for my Netflix account is …"): at most this many.
const MAX_GAP: usize = 5;

/// Words that read as the start of a sentence about the secret rather than the secret
/// itself ("my PIN is the same as…", "the password is not set"): never masked.
const NOT_VALUES: &[&str] = &[
    "the", "a", "an", "not", "same", "also", "still", "my", "your", "changed", "new", "set",
    "written", "stored", "saved", "in", "on", "at", "from", "inte", "ikke", "samma", "samme",
    "det", "den", "en", "ett", "et", "min", "mitt", "mit", "ny", "nytt", "nyt", "i", "på",
    "ändrat", "ændret", "sparat", "gemt",
];

/// `text` with every secret (module doc) replaced by [`MASK`]; borrowed when there is none.
///
/// ```
/// use minne::secret::{mask, MASK};
/// assert_eq!(mask("My bank PIN is 4821."), format!("My bank PIN is {MASK}."));
/// assert_eq!(mask("I forgot my password again"), "I forgot my password again");
/// ```
pub fn mask(text: &str) -> Cow<'_, str> {
    let words = words(text);
    let mut secret = vec![false; words.len()];
    mark_credential_values(&words, &mut secret);
    mark_card_numbers(&words, &mut secret);
    for (i, w) in words.iter().enumerate() {
        if is_identity_number(w.core) || is_access_token(w.core) {
            secret[i] = true;
        }
    }
    if !secret.contains(&true) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let mut i = 0;
    while i < words.len() {
        if !secret[i] {
            i += 1;
            continue;
        }
        // A run of secret words ("4821 5532", a card in groups) becomes one mask.
        let mut j = i;
        while j + 1 < words.len() && secret[j + 1] {
            j += 1;
        }
        out.push_str(&text[at..words[i].core_start]);
        out.push_str(MASK);
        at = words[j].core_end;
        i = j + 1;
    }
    out.push_str(&text[at..]);
    Cow::Owned(out)
}

/// A whitespace-separated word: its core (without the punctuation around it) and where the
/// core sits in the text (bytes).
#[derive(Debug, Clone, Copy)]
struct Word<'a> {
    core: &'a str,
    core_start: usize,
    core_end: usize,
    /// The word with its punctuation, for linking words that are punctuation (":", "=").
    raw: &'a str,
}

/// Punctuation that may stand around a word and is not part of it.
fn is_edge(c: char) -> bool {
    matches!(
        c,
        '"' | '\''
            | '`'
            | ','
            | '.'
            | ';'
            | ':'
            | '!'
            | '?'
            | '('
            | ')'
            | '['
            | ']'
            | '{'
            | '}'
            | '«'
            | '»'
            | '“'
            | '”'
            | '‘'
            | '’'
            | '*'
    )
}

fn words(text: &str) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                let raw = &text[s..i];
                let lead = raw.len() - raw.trim_start_matches(is_edge).len();
                let trimmed = raw.trim_matches(is_edge);
                let core_start = s + lead;
                out.push(Word {
                    core: trimmed,
                    core_start,
                    core_end: core_start + trimmed.len(),
                    raw,
                });
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// Whether `word` (lower case) is `stem` with one of [`ENDINGS`].
fn is_form_of(word: &str, stems: &[&str]) -> bool {
    stems.iter().any(|stem| {
        word.strip_prefix(stem)
            .is_some_and(|ending| ENDINGS.contains(&ending))
    })
}

/// How strongly a word names a credential.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Credential {
    /// Its value is a secret whatever it looks like.
    Any,
    /// Its value is a secret when it holds a digit.
    Digits,
}

fn credential_at(words: &[Word<'_>], i: usize) -> Option<Credential> {
    let w = words[i].core.to_lowercase();
    if is_form_of(&w, CREDENTIALS) {
        return Some(Credential::Any);
    }
    if KEY_WORDS.contains(&w.as_str())
        && i > 0
        && KEY_PREFIXES.contains(&words[i - 1].core.to_lowercase().as_str())
    {
        return Some(Credential::Any);
    }
    if is_form_of(&w, CODE_WORDS) {
        return Some(Credential::Digits);
    }
    compound(&w)
}

/// A hyphenated compound whose last part (its head, in English, Swedish and Danish) names a
/// credential, a code or a number, and one of whose parts is a credential or code word:
/// "PIN-kod", "PIN-koden", "PIN-kode", "PIN-nummer", "bank-PIN", "wifi-lösenordet". Its value
/// is a secret as that part's is (a second attack on issue 30 found "Min PIN-kod är 4821"
/// shown in clear). "pin-up" and "telefon-nummer" are no credential: their head names none,
/// or no part is a credential or code word.
fn compound(word: &str) -> Option<Credential> {
    let parts: Vec<&str> = word.split('-').filter(|p| !p.is_empty()).collect();
    let (&head, _) = parts.split_last().filter(|_| parts.len() > 1)?;
    let names_a_value = [CREDENTIALS, CODE_WORDS, NUMBER_WORDS]
        .iter()
        .any(|stems| is_form_of(head, stems));
    if !names_a_value {
        return None;
    }
    if parts.iter().any(|p| is_form_of(p, CREDENTIALS)) {
        Some(Credential::Any)
    } else if parts.iter().any(|p| is_form_of(p, CODE_WORDS)) {
        Some(Credential::Digits)
    } else {
        None
    }
}

fn has_digit(s: &str) -> bool {
    s.chars().any(|c| c.is_ascii_digit())
}

/// Whether `word` is a linking word, or ends in one (`PIN:`).
fn is_link(word: &Word<'_>) -> bool {
    LINKS.contains(&word.core.to_lowercase().as_str())
        || word.raw.ends_with(':')
        || word.raw.ends_with('=')
}

/// Marks the value after each credential word (module doc).
fn mark_credential_values(words: &[Word<'_>], secret: &mut [bool]) {
    for i in 0..words.len() {
        let Some(kind) = credential_at(words, i) else {
            continue;
        };
        let mut linked = words[i].raw.ends_with(':') || words[i].raw.ends_with('=');
        let mut value = None;
        for (k, w) in words.iter().enumerate().skip(i + 1).take(MAX_GAP + 1) {
            // The value is in the credential word's sentence, and not in an annotation
            // ("[2026-05-01 – 2026-05-31]", a fact's validity).
            if w.raw.starts_with('[') || words[k - 1].raw.ends_with(['.', '!', '?', ';']) {
                break;
            }
            if w.core.is_empty() || (is_link(w) && !has_digit(w.core)) {
                linked |= is_link(w);
                continue;
            }
            if NOT_VALUES.contains(&w.core.to_lowercase().as_str()) {
                if linked {
                    break;
                }
                continue;
            }
            // Linked: this is the value. Straight after the word: only one that looks like
            // a secret ("PIN 4821"); other words are the gap ("password for Netflix is").
            if linked || (k == i + 1 && has_digit(w.core)) {
                value = Some(k);
                break;
            }
        }
        let Some(k) = value else { continue };
        let core = words[k].core;
        let looks_secret = has_digit(core) || (kind == Credential::Any && linked);
        if !looks_secret {
            continue;
        }
        secret[k] = true;
        // A value in groups: "4821 5532", "12-34 56".
        let mut next = k + 1;
        while next < words.len()
            && !words[next].core.is_empty()
            && words[next]
                .core
                .chars()
                .all(|c| c.is_ascii_digit() || c == '-')
            && has_digit(words[next].core)
            && !words[next - 1].raw.ends_with(['.', ',', ';', '!', '?'])
        {
            secret[next] = true;
            next += 1;
        }
    }
}

/// The Luhn check of a digit string (ISO/IEC 7812), used by payment card numbers.
fn luhn(digits: &[u32]) -> bool {
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &d)| match (!i.is_multiple_of(2), d * 2) {
            // Every second digit from the right is doubled; a two-digit result adds its digits.
            (true, x) if x > 9 => x - 9,
            (true, x) => x,
            (false, _) => d,
        })
        .sum();
    sum.is_multiple_of(10)
}

/// Marks runs of digit groups that together are a payment card number (13 to 19 digits that
/// pass the Luhn check).
fn mark_card_numbers(words: &[Word<'_>], secret: &mut [bool]) {
    let is_group =
        |w: &Word<'_>| !w.core.is_empty() && w.core.chars().all(|c| c.is_ascii_digit() || c == '-');
    let mut i = 0;
    while i < words.len() {
        if !is_group(&words[i]) {
            i += 1;
            continue;
        }
        let mut j = i;
        while j + 1 < words.len() && is_group(&words[j + 1]) && !words[j].raw.ends_with([',', '.'])
        {
            j += 1;
        }
        let digits: Vec<u32> = words[i..=j]
            .iter()
            .flat_map(|w| w.core.chars().filter_map(|c| c.to_digit(10)))
            .collect();
        if (13..=19).contains(&digits.len())
            && digits.iter().any(|&d| d != digits[0])
            && luhn(&digits)
        {
            secret[i..=j].iter_mut().for_each(|s| *s = true);
        }
        i = j + 1;
    }
}

/// A personnummer (`YYMMDD-NNNN`, `YYMMDD+NNNN`, `YYYYMMDD-NNNN`) or CPR number
/// (`DDMMYY-NNNN`) whose date part is a possible date.
fn is_identity_number(word: &str) -> bool {
    let Some((date, serial)) = word.split_once(['-', '+']) else {
        return false;
    };
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    if !digits(date) || !digits(serial) || serial.len() != 4 {
        return false;
    }
    let n = |s: &str| s.parse::<u32>().unwrap_or(0);
    match date.len() {
        // YYMMDD (personnummer) or DDMMYY (CPR).
        6 => {
            let (a, b, c) = (n(&date[0..2]), n(&date[2..4]), n(&date[4..6]));
            let ymd = (1..=12).contains(&b) && (1..=31).contains(&c);
            let dmy = (1..=31).contains(&a) && (1..=12).contains(&b);
            ymd || dmy
        }
        8 => {
            let (y, m, d) = (n(&date[0..4]), n(&date[4..6]), n(&date[6..8]));
            (1900..=2100).contains(&y) && (1..=12).contains(&m) && (1..=31).contains(&d)
        }
        _ => false,
    }
}

/// An API key or access token (module doc).
fn is_access_token(word: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "sk-",
        "ghp_",
        "gho_",
        "github_pat_",
        "xoxb-",
        "xoxp-",
        "AKIA",
        "glpat-",
        "AIza",
    ];
    let token_char = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    if !word.chars().all(token_char) {
        return false;
    }
    if let Some(p) = PREFIXES.iter().find(|p| word.starts_with(**p)) {
        return word.len() >= p.len() + 16;
    }
    word.len() >= 32
        && word.chars().any(|c| c.is_ascii_uppercase())
        && word.chars().any(|c| c.is_ascii_lowercase())
        && has_digit(word)
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;

    /// Each case: the text, and what the session-start block should show of it. The values
    /// are worked out by reading the sentence: what a person would call the secret in it.
    #[rstest]
    #[case::pin_after_is("My bank PIN is 4821.", "My bank PIN is [M].")]
    #[case::pin_straight_after("PIN 4821 for the card", "PIN [M] for the card")]
    #[case::colon("wifi password: Hunter2!", "wifi password: [M]!")]
    #[case::gap(
        "The password for my Netflix account is sunflower",
        "The password for my Netflix account is [M]"
    )]
    #[case::word_password("my password is sunflower", "my password is [M]")]
    #[case::swedish_definite(
        "Lösenordet till routern är Sommar2024",
        "Lösenordet till routern är [M]"
    )]
    #[case::swedish_code("Koden till porten är 1234", "Koden till porten är [M]")]
    #[case::danish("Min pinkode er 9931", "Min pinkode er [M]")]
    #[case::danish_door("Dørkoden er 4512 A", "Dørkoden er [M] A")]
    #[case::door_code("The door code is 45 12", "The door code is [M]")]
    #[case::api_key("My API key is sk-abcdefghijklmnopqrstuvwx", "My API key is [M]")]
    #[case::bare_token("token sk-proj4abcdefghijklmnopqrs in the env", "token [M] in the env")]
    #[case::card("card 4111 1111 1111 1111, expires soon", "card [M], expires soon")]
    #[case::personnummer("mitt personnummer är 850709-9805", "mitt personnummer är [M]")]
    #[case::cpr("CPR 010190-1234 on the form", "CPR [M] on the form")]
    #[case::sv_hyphen_compound("Min PIN-kod är 4821.", "Min PIN-kod är [M].")]
    #[case::sv_hyphen_definite("PIN-koden är 4821", "PIN-koden är [M]")]
    #[case::da_hyphen_compound("Min PIN-kode er 4821.", "Min PIN-kode er [M].")]
    #[case::da_number_compound("Mit PIN-nummer er 4821", "Mit PIN-nummer er [M]")]
    #[case::head_is_the_credential("wifi-lösenordet är Sommar2024", "wifi-lösenordet är [M]")]
    #[case::code_compound("larm-koden är 7788", "larm-koden är [M]")]
    fn secrets_are_masked(#[case] text: &str, #[case] shown: &str) {
        assert_eq!(
            mask(text),
            shown.replace("[M]", MASK),
            "the secret in {text:?} is the value a person would call the secret"
        );
    }

    /// Text about a secret, or with numbers that are not secrets, stays as written: masking
    /// it would hide what the assistant needs ("the user forgot their password").
    #[rstest]
    #[case::forgot("I forgot my password again")]
    #[case::same("My PIN is the same as before")]
    #[case::code_review("The code review is tomorrow")]
    #[case::code_word_no_digit("the code is messy")]
    #[case::phone("Call me on 070-123 45 67")]
    #[case::year_range("I lived there 2019-2021")]
    #[case::commit("fixed in 3f2a9c1e4b5d6a7f8e9d0c1b2a3f4e5d6c7b8a9f")]
    #[case::plain_number("we were 12 people")]
    #[case::not_luhn("order 1234 5678 9012 3456")]
    #[case::zip("my zip code")]
    #[case::dated("the gate code changes in May [2026-05-01 – 2026-05-31]")]
    #[case::next_sentence("I reset the password. It is 3 days old now")]
    #[case::pin_up("the pin-up poster is Bettie")]
    #[case::phone_compound("mitt telefon-nummer är 0701234567")]
    #[case::code_compound_no_digit("larm-koden är enkel")]
    fn non_secrets_stay(#[case] text: &str) {
        assert_eq!(mask(text), text, "{text:?} holds no secret");
    }

    /// Worked by hand: 4111 1111 1111 1111 doubles every second digit from the right
    /// (4→8, 1→2 ×7), 8 + 7·2 + 8·1 = 30, a multiple of 10; changing the last digit breaks it.
    #[test]
    fn luhn_matches_a_hand_computed_sum() {
        let d = |s: &str| s.chars().filter_map(|c| c.to_digit(10)).collect::<Vec<_>>();
        assert!(luhn(&d("4111111111111111")), "the sum is 30");
        assert!(!luhn(&d("4111111111111112")), "the sum is 31");
        // 79927398713: the Luhn article's example, valid.
        assert!(luhn(&d("79927398713")), "a digit 9 doubled is 18 → 9");
    }
}
