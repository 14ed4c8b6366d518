//! Rule-based fact extraction in English, Swedish and Danish (seed 003, the semantic layer).
//!
//! Conservative on purpose (seed 003: "better to miss something than to hallucinate"): a claim
//! is only read from a first-person statement in the present or the perfect ("I live in",
//! "jag bor i", "jeg er flyttet til"), never from a hedge ("I might try Python"), a question,
//! reported speech ("Oskar says I …") or a sentence about somebody else ("Oskar hates
//! football"). Callers pass only the user's own episodes.

use std::fmt;

use super::lexicon::*;
use super::words::{self, Word, find_all, is_boundary};

/// What a fact is about. Single-valued attributes supersede one another; multi-valued ones
/// collect values side by side.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Attribute {
    /// The user's name.
    Name,
    /// Job title.
    Role,
    /// Who the user works for.
    Employer,
    /// Where the user lives.
    Location,
    /// The user's time zone.
    Timezone,
    /// A language the user speaks.
    Language,
    /// How the user wants answers ("concise").
    CommunicationStyle,
    /// A tool the user uses.
    Tool,
    /// An area of expertise.
    Expertise,
    /// A family member ("daughter Maja").
    Family,
    /// A pet ("dog Rex").
    Pet,
    /// Something the user is allergic to.
    Allergy,
    /// What the user eats ("vegetarian").
    Diet,
    /// Something the user asked to be remembered, in their words ("remember that …").
    Statement,
    /// Whether the user likes something: the value is `likes` or `dislikes`, the object is
    /// part of the attribute (`preference:koriander`), so a change of heart supersedes.
    Preference(String),
}

impl Attribute {
    /// The stored key: `name`, `location`, …, `preference:<object>`.
    pub fn key(&self) -> String {
        match self {
            Attribute::Preference(object) => format!("preference:{object}"),
            other => other.simple_key().to_string(),
        }
    }

    fn simple_key(&self) -> &'static str {
        match self {
            Attribute::Name => "name",
            Attribute::Role => "role",
            Attribute::Employer => "employer",
            Attribute::Location => "location",
            Attribute::Timezone => "timezone",
            Attribute::Language => "language",
            Attribute::CommunicationStyle => "communication_style",
            Attribute::Tool => "tool",
            Attribute::Expertise => "expertise",
            Attribute::Family => "family",
            Attribute::Pet => "pet",
            Attribute::Allergy => "allergy",
            Attribute::Diet => "diet",
            Attribute::Statement => "statement",
            Attribute::Preference(_) => "preference",
        }
    }

    /// Reads a stored key back.
    pub fn parse(key: &str) -> Option<Attribute> {
        if let Some(object) = key.strip_prefix("preference:") {
            return Some(Attribute::Preference(object.to_string()));
        }
        [
            Attribute::Name,
            Attribute::Role,
            Attribute::Employer,
            Attribute::Location,
            Attribute::Timezone,
            Attribute::Language,
            Attribute::CommunicationStyle,
            Attribute::Tool,
            Attribute::Expertise,
            Attribute::Family,
            Attribute::Pet,
            Attribute::Allergy,
            Attribute::Diet,
            Attribute::Statement,
        ]
        .into_iter()
        .find(|a| a.simple_key() == key)
    }

    /// Whether a new value replaces the old one (a move, a new job, a renamed user) rather
    /// than standing beside it (a second tool, a second child).
    pub fn single_valued(&self) -> bool {
        matches!(
            self,
            Attribute::Name
                | Attribute::Role
                | Attribute::Employer
                | Attribute::Location
                | Attribute::Timezone
                | Attribute::CommunicationStyle
                | Attribute::Diet
                | Attribute::Preference(_)
        )
    }

    /// Whether `new` says the value `held` in part, so it is the same value said shorter, not
    /// a new one: for the name only, `new`'s words are some of `held`'s, in order and fewer
    /// ("Bertil" or "Andersson" of "Bertil Andersson"; "Anna Svensson" of "Anna Maria
    /// Svensson"), compared without case. People give their first name alone all the time
    /// ("Jag heter Bertil"); it is the same person's name, not a change of it (a fresh user's
    /// "Jag heter Bertil" superseded "Bertil Andersson"). "Mette" is no part of "Mette-Marie",
    /// which is one word.
    pub(crate) fn says_in_part(&self, held: &str, new: &str) -> bool {
        if *self != Attribute::Name {
            return false;
        }
        let held: Vec<String> = held.split_whitespace().map(str::to_lowercase).collect();
        let new: Vec<String> = new.split_whitespace().map(str::to_lowercase).collect();
        if new.is_empty() || new.len() >= held.len() {
            return false;
        }
        let mut rest = held.iter();
        new.iter().all(|w| rest.any(|h| h == w))
    }

    /// The fact as a short English sentence about the user, for the profile and recall. A
    /// retraction record's value (see `ladder::retract`) reads "no longer …, retracted by the
    /// user".
    pub fn describe(&self, value: &str) -> String {
        if let Some(retracted) = value.strip_prefix(super::ladder::RETRACTED_BY_USER) {
            return format!(
                "no longer {}, retracted by the user",
                self.describe(retracted)
            );
        }
        match self {
            Attribute::Name => format!("name is {value}"),
            Attribute::Role => format!("works as {value}"),
            Attribute::Employer => format!("works at {value}"),
            Attribute::Location => format!("lives in {value}"),
            Attribute::Timezone => format!("time zone is {value}"),
            Attribute::Language => format!("speaks {value}"),
            Attribute::CommunicationStyle => format!("prefers {value} answers"),
            Attribute::Tool => format!("uses {value}"),
            Attribute::Expertise => format!("has expertise in {value}"),
            Attribute::Family => format!("family: {value}"),
            Attribute::Pet => format!("pet: {value}"),
            Attribute::Allergy => format!("allergic to {value}"),
            Attribute::Diet => format!("eats {value}"),
            Attribute::Statement => value.to_string(),
            Attribute::Preference(object) => format!("{value} {object}"),
        }
    }
}

impl fmt::Display for Attribute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.key())
    }
}

/// One thing a user's sentence says about them.
#[derive(Debug, Clone, PartialEq)]
pub struct Claim {
    /// What it is about.
    pub attribute: Attribute,
    /// The value in the user's own words ("Tartu", "production coordinator", "likes").
    pub value: String,
    /// The user corrects an earlier value ("actually", "not Alice", "ret lige"): applies at
    /// once (seed 003).
    pub correction: bool,
    /// Inside quotation marks or reported speech: unclear authority, so never applied
    /// silently.
    pub quoted: bool,
    /// The old value the sentence names as wrong ("Alex, not Alice" → `Alice`): that value is
    /// superseded even for a multi-valued attribute.
    pub replaces: Option<String>,
    /// The user says the value no longer holds ("I left Nordhav", "jag har slutat på X"): the
    /// matching current fact ends, nothing new starts.
    pub ends: bool,
}

/// How a value is read after a pattern.
#[derive(Debug, Clone, Copy)]
enum Value {
    /// A run of capitalised words: a name, a place, a company.
    Proper,
    /// Up to four words to the end of the clause.
    Phrase,
    /// A role up to `at`/`for`/`på`/`hos`, then optionally the employer.
    RoleAt,
    /// A role where an employer must follow (`I am a … at …`), else nothing.
    RoleAtOnly,
    /// One or more proper names joined by `,`, `and`, `och`, `og`.
    ProperList,
    /// One or more [`Value::Phrase`]s joined by `and`/`och`/`og`/`or`/`eller`/`samt` (and
    /// commas before a final one): "peanuts, shellfish and latex".
    PhraseList,
    /// A language name.
    LanguageName,
    /// A style adjective followed by "answers"/"svar".
    Style,
    /// A family relation or pet word, then optionally its name.
    Kin,
    /// A self-introduction ("I'm Erik Lindqvist", "Jag är Erik", "Jeg er Mette"): a run of
    /// capitalised words whose first is a given name, and nothing after it in the clause.
    SelfIntro,
}

use Attribute as A;

/// (pattern, attribute, how to read the value). Patterns are canonical lowercase words.
fn rules() -> Vec<(&'static str, Attribute, Value)> {
    let mut r: Vec<(&'static str, Attribute, Value)> = Vec::new();
    for p in [
        "my name is",
        "i am called",
        "call me",
        "jag heter",
        "mitt namn är",
        "jeg hedder",
        "mit navn er",
    ] {
        r.push((p, A::Name, Value::Proper));
    }
    for p in ["i am", "jag är", "jeg er"] {
        r.push((p, A::Name, Value::SelfIntro));
    }
    for p in [
        "i live in",
        "we live in",
        "i now live in",
        "we now live in",
        "i moved to",
        "we moved to",
        "i have moved to",
        "we have moved to",
        "i just moved to",
        "we just moved to",
        "i am based in",
        "we are based in",
        "i relocated to",
        "we relocated to",
        "jag bor i",
        "vi bor i",
        "jag bor nu i",
        "vi bor nu i",
        "jag flyttade till",
        "vi flyttade till",
        "jag har flyttat till",
        "vi har flyttat till",
        "jeg bor i",
        "vi bor nu i",
        "jeg bor nu i",
        "jeg flyttede til",
        "vi flyttede til",
        "jeg er flyttet til",
        "vi er flyttet til",
        "jeg har flyttet til",
        "vi har flyttet til",
    ] {
        r.push((p, A::Location, Value::Proper));
    }
    for p in [
        "i work at",
        "i work for",
        "i am working at",
        "i am working for",
        "i started at",
        "i am employed at",
        "i got a job at",
        "i got a new job at",
        "i have a new job at",
        "i started a new job at",
        "i have started a new job at",
        "i started working at",
        "i started working for",
        "i just started working at",
        "i have started working at",
        "jag har fått jobb på",
        "jag har fått nytt jobb på",
        "jag har fått jobb hos",
        "jag har börjat jobba på",
        "jag har börjat arbeta på",
        "jeg har fået job hos",
        "jeg har fået nyt job hos",
        "jeg har fået job på",
        "jeg er begyndt hos",
        "jeg er startet på",
        "i am employed by",
        "jag jobbar på",
        "jag arbetar på",
        "jag jobbar hos",
        "jag arbetar hos",
        "jag har börjat på",
        "jeg arbejder hos",
        "jeg arbejder på",
        "jeg er ansat hos",
        "jeg er ansat i",
        "jeg er startet hos",
    ] {
        r.push((p, A::Employer, Value::Proper));
    }
    for p in [
        "i work as a",
        "i work as an",
        "i work as",
        "my first day as a",
        "my first day as an",
        "my first day as",
        "i started as a",
        "i started as",
        "i started as an",
        "i am working as a",
        "i am working as an",
        "i am working as",
        "i am employed as a",
        "i am employed as an",
        "i am employed as",
        "i got a job as a",
        "i got a job as an",
        "i got a job as",
        "i got a new job as a",
        "i got a new job as an",
        "i got a new job as",
        "i have a new job as a",
        "i have a new job as an",
        "i have a new job as",
        "i started a new job as a",
        "i started a new job as an",
        "i started a new job as",
        "i have started a new job as a",
        "i have started a new job as an",
        "i have started a new job as",
        "i started working as a",
        "i started working as an",
        "i started working as",
        "i have started working as a",
        "i have started working as an",
        "i have started working as",
        "jag har börjat jobba som",
        "jag har börjat arbeta som",
        "jag började jobba som",
        "jag började arbeta som",
        "jag har fått jobb som",
        "jag har fått nytt jobb som",
        "jag har fått ett nytt jobb som",
        "jag har fått ett jobb som",
        "jag är anställd som",
        "jag har börjat som",
        "jag började som",
        "jeg er startet som",
        "jeg er begyndt som",
        "jeg startede som",
        "jeg begyndte som",
        "jeg er begyndt at arbejde som",
        "jeg er startet med at arbejde som",
        "jeg har fået job som",
        "jeg har fået nyt job som",
        "jeg har fået et nyt job som",
        "jeg har fået et job som",
        "jag jobbar som",
        "jag arbetar som",
        "min första dag som",
        "jeg arbejder som",
        "jeg er ansat som",
        "min første dag som",
    ] {
        r.push((p, A::Role, Value::RoleAt));
    }
    for p in [
        "i am a",
        "i am an",
        "i have been a",
        "i have been an",
        "jag är",
        "jeg er",
        "jag är en",
        "jeg er en",
    ] {
        r.push((p, A::Role, Value::RoleAtOnly));
    }
    for p in [
        "my timezone is",
        "my time zone is",
        "min tidszon är",
        "min tidszone er",
    ] {
        r.push((p, A::Timezone, Value::Phrase));
    }
    for p in [
        "i speak",
        "my native language is",
        "my mother tongue is",
        "jag talar",
        "jag pratar",
        "mitt modersmål är",
        "jeg taler",
        "mit modersmål er",
    ] {
        r.push((p, A::Language, Value::LanguageName));
    }
    for p in [
        "i prefer",
        "jag föredrar",
        "jeg foretrækker",
        "jeg foretrækker at få",
    ] {
        r.push((p, A::CommunicationStyle, Value::Style));
    }
    for p in [
        "i use",
        "we use",
        "i am using",
        "jag använder",
        "vi använder",
        "jeg bruger",
        "vi bruger",
    ] {
        r.push((p, A::Tool, Value::ProperList));
    }
    for p in [
        "i am an expert in",
        "i am an expert on",
        "i specialise in",
        "i specialize in",
        "jag är expert på",
        "jag är specialiserad på",
        "jeg er ekspert i",
        "jeg er ekspert på",
        "jeg er specialiseret i",
    ] {
        r.push((p, A::Expertise, Value::Phrase));
    }
    for p in [
        "i am allergic to",
        "jag är allergisk mot",
        "jeg er allergisk over for",
        "jeg er allergisk overfor",
        "jeg er allergisk for",
    ] {
        r.push((p, A::Allergy, Value::PhraseList));
    }
    // "Our dog Bosse", "vår hund", "vores kat": the household's is the user's too.
    for p in [
        "my", "min", "mitt", "mit", "our", "vår", "vårt", "våra", "vores", "mina", "mine",
    ] {
        r.push((p, A::Family, Value::Kin));
    }
    r
}

/// The claims the user's own words in `text` make about the user, in order. `text` must be
/// the user's words (an episode of role `user`); the rules do not check who spoke.
pub fn extract(text: &str) -> Vec<Claim> {
    // Bracketed times and captions are not the user's words (see `words::mask_annotations`).
    let masked = words::mask_annotations(text);
    let text: &str = &masked;
    let all = words::tokenize(text);
    let mut out: Vec<Claim> = Vec::new();
    let rules = rules();
    for s in words::sentences(text, &all) {
        let raw = &all[s];
        let w = &without_sentence_adverbs(raw);
        if is_hedged(w) {
            continue;
        }
        // Read on the sentence as said: the adverb left out below may be what marks it a
        // correction ("Jag heter *faktiskt* Anneli").
        let correction = raw
            .iter()
            .any(|x| CORRECTION_MARKS.contains(&x.low.as_str()))
            || (w.first().is_some_and(|x| x.low == "ret")
                && w.get(1).is_some_and(|x| x.low == "lige"));
        let replaces = named_as_wrong(text, w);
        let correction = correction || replaces.is_some();
        let claims_before = out.len();
        let mut push = |c: Claim| {
            let same =
                |o: &Claim| o.attribute == c.attribute && o.value.eq_ignore_ascii_case(&c.value);
            // "I broke up with my boyfriend Tom": the sentence names the relation and ends
            // it, so the value it names ends rather than starts.
            if c.ends
                && let Some(o) = out[claims_before..].iter_mut().find(|o| same(o))
            {
                o.ends = true;
                return;
            }
            if !out.iter().any(same) {
                out.push(c);
            }
        };
        for (pattern, attribute, how) in &rules {
            for (start, end) in find_all(w, pattern) {
                if !clause_initial(w, start) && !matches!(how, Value::Kin) {
                    continue;
                }
                // "people call me Bert": what others call the user, not the name they give.
                if *attribute == A::Name && called_by_others(w, start) {
                    continue;
                }
                let quoted = is_quoted(text, w, start);
                let mk = |attribute: Attribute, value: String| Claim {
                    attribute,
                    value,
                    correction,
                    quoted,
                    replaces: replaces.clone(),
                    ends: false,
                };
                match how {
                    Value::Proper => {
                        if let Some(v) = proper(text, w, end) {
                            push(mk(attribute.clone(), v));
                        }
                    }
                    Value::Phrase => {
                        if let Some(v) = phrase(text, w, end) {
                            push(mk(attribute.clone(), v));
                        }
                    }
                    Value::RoleAt | Value::RoleAtOnly => {
                        let (role, employer) = role_at(text, w, end);
                        // "I'm a nurse", "Jag är sjuksköterska": a job without an employer only
                        // when it names an occupation, so "I'm a bit tired" and "I'm a morning
                        // person" are none.
                        let needs_employer = matches!(how, Value::RoleAtOnly);
                        if needs_employer
                            && employer.is_none()
                            && !role.as_deref().is_some_and(is_occupation)
                        {
                            continue;
                        }
                        if let Some(r) = role {
                            push(mk(A::Role, r));
                        }
                        if let Some(e) = employer {
                            push(mk(A::Employer, e));
                        }
                    }
                    Value::PhraseList => {
                        for v in phrase_list(text, w, end) {
                            push(mk(attribute.clone(), v));
                        }
                    }
                    Value::ProperList => {
                        for v in proper_list(text, w, end) {
                            push(mk(attribute.clone(), v));
                        }
                    }
                    Value::LanguageName => {
                        if let Some(x) = w.get(end).filter(|x| LANGUAGES.contains(&x.low.as_str()))
                        {
                            push(mk(attribute.clone(), capitalise(&x.low)));
                        }
                    }
                    Value::Style => {
                        let adj = w.get(end).filter(|x| STYLES.contains(&x.low.as_str()));
                        let noun = w
                            .get(end + 1)
                            .filter(|x| STYLE_NOUNS.contains(&x.low.as_str()));
                        if let (Some(a), Some(_)) = (adj, noun) {
                            push(mk(attribute.clone(), a.low.clone()));
                        }
                    }
                    Value::Kin => {
                        for c in kin(text, w, start, end) {
                            push(Claim {
                                quoted,
                                correction,
                                replaces: replaces.clone(),
                                ..c
                            });
                        }
                    }
                    Value::SelfIntro => {
                        if let Some(v) = self_intro(text, w, end) {
                            push(mk(A::Name, v));
                        }
                    }
                }
            }
        }
        if let Some((at, value)) = nickname(text, w) {
            push(Claim {
                attribute: A::Statement,
                value,
                correction: false,
                quoted: is_quoted(text, w, at),
                replaces: None,
                ends: false,
            });
        }
        for (list, polarity) in [(LIKES, "likes"), (DISLIKES, "dislikes")] {
            for pattern in list {
                for (start, end) in find_all(w, pattern) {
                    if !clause_initial(w, start) {
                        continue;
                    }
                    // "jag gillar inte X" also starts with "jag gillar": the longer, negated
                    // pattern decides.
                    if polarity == "likes"
                        && w.get(end)
                            .is_some_and(|x| matches!(x.low.as_str(), "not" | "inte" | "ikke"))
                    {
                        continue;
                    }
                    let Some(object) = liked_object(text, w, infinitive_after(pattern, w, end))
                    else {
                        continue;
                    };
                    let first = object.split(' ').next().unwrap_or_default().to_lowercase();
                    // "The things I love makes writing fun": the liking sits in a relative
                    // clause and its "object" is the main clause's verb.
                    if FINITE_VERBS.contains(&first.as_str()) {
                        continue;
                    }
                    // "all the yellow leaves" (those in a photo) is no kind of thing; "all
                    // dances" is one.
                    let definite_all = matches!(first.as_str(), "all" | "alla" | "alle")
                        && w.get(end + 1).is_some_and(|x| {
                            NOT_OBJECTS.contains(&x.low.as_str())
                                || matches!(
                                    x.low.as_str(),
                                    "of" | "my" | "our" | "de" | "dessa" | "disse" | "mine" | "mina"
                                )
                                // Swedish and Danish mark the definite plural with a suffix:
                                // "alla färgerna", "alle farverne".
                                || (first == "alla" && x.low.ends_with("na"))
                                || (first == "alle" && x.low.ends_with("ne"))
                        });
                    if NOT_OBJECTS.contains(&first.as_str())
                        || definite_all
                        || (NOT_OBJECTS_MORE.contains(&first.as_str())
                            && !matches!(first.as_str(), "all" | "alla" | "alle"))
                        || LIGHT_OBJECTS.contains(&object.to_lowercase().as_str())
                        || points_back(&object)
                        || social(w, start)
                    {
                        continue;
                    }
                    push(Claim {
                        attribute: A::Preference(object.to_lowercase()),
                        value: polarity.to_string(),
                        correction,
                        quoted: is_quoted(text, w, start),
                        replaces: None,
                        ends: false,
                    });
                }
            }
        }

        for (pattern, attribute) in ENDINGS {
            for (start, end) in find_all(w, pattern) {
                if !clause_initial(w, start) {
                    continue;
                }
                if let Some(v) = proper(text, w, end) {
                    push(Claim {
                        attribute: attribute.clone(),
                        value: v,
                        correction,
                        quoted: is_quoted(text, w, start),
                        replaces: None,
                        ends: true,
                    });
                }
            }
        }
        if let Some((at, place)) = moved_to(text, w) {
            push(Claim {
                attribute: A::Location,
                value: place,
                correction,
                quoted: is_quoted(text, w, at),
                replaces: replaces.clone(),
                ends: false,
            });
        }
        for (at, value) in broken_up(text, w) {
            push(Claim {
                attribute: A::Family,
                value,
                correction,
                quoted: is_quoted(text, w, at),
                replaces: None,
                ends: true,
            });
        }
        let diet_leads = DIET_LEADS.iter().map(|p| (p, false));
        for (pattern, ends) in diet_leads.chain(DIET_ENDS.iter().map(|p| (p, true))) {
            for (start, end) in find_all(w, pattern) {
                let article = w
                    .get(end)
                    .is_some_and(|x| matches!(x.low.as_str(), "a" | "an"));
                let at = if article { end + 1 } else { end };
                let Some(diet) = w.get(at).filter(|x| DIETS.contains(&x.low.as_str())) else {
                    continue;
                };
                if !clause_initial(w, start) {
                    continue;
                }
                push(Claim {
                    attribute: A::Diet,
                    value: diet.low.clone(),
                    correction,
                    quoted: is_quoted(text, w, start),
                    replaces: None,
                    ends,
                });
            }
        }
        // "I used to love coriander": the old liking ends, nothing new is claimed.
        for pattern in USED_TO_LIKE {
            for (start, end) in find_all(w, pattern) {
                let Some(object) = phrase(text, w, end).filter(|_| clause_initial(w, start)) else {
                    continue;
                };
                push(Claim {
                    attribute: A::Preference(object.to_lowercase()),
                    value: "likes".to_string(),
                    correction,
                    quoted: is_quoted(text, w, start),
                    replaces: None,
                    ends: true,
                });
            }
        }
        // "I'm not allergic to peanuts anymore": the user's own negation of what a rule reads
        // ends that value (issue 5), when the sentence claimed nothing else.
        if out.len() == claims_before
            && let Some((at, denied)) = negated(text, w)
        {
            let quoted = is_quoted(text, w, at);
            for c in denied {
                out.push(Claim {
                    correction,
                    quoted,
                    replaces: None,
                    ends: true,
                    ..c
                });
            }
        }
        // A free statement about the user ("I'm terrified of flying"), when the sentence
        // named no attribute: the clause in the user's words, from its first-person opening.
        if out.len() == claims_before
            && let Some(value) = statement(text, w)
        {
            let quoted = is_quoted(text, w, 0);
            out.push(Claim {
                attribute: A::Statement,
                value,
                correction,
                quoted,
                replaces: None,
                ends: false,
            });
        }
    }
    // "I stopped using Figma": what the user no longer uses they no longer work in either, so
    // an expertise of the same value ends too (only one held is ended, `ladder::retract`).
    let tools_ended: Vec<Claim> = out
        .iter()
        .filter(|c| c.ends && c.attribute == A::Tool)
        .map(|c| Claim {
            attribute: A::Expertise,
            ..c.clone()
        })
        .collect();
    for c in tools_ended {
        if !out
            .iter()
            .any(|o| o.attribute == c.attribute && o.value.eq_ignore_ascii_case(&c.value))
        {
            out.push(c);
        }
    }
    out
}

/// Words that may open a sentence before a free statement.
#[rustfmt::skip]
const STATEMENT_LEADERS: &[&str] = &[
    "and", "but", "also", "honestly", "actually", "och", "men", "också", "ärligt", "og", "også",
    "ærligt",
];

/// Sentence adverbs that only say when or how surely a statement holds, where they stand
/// inside a first-person statement: after the subject ("I *now* work at Blorptech", "we
/// *currently* live in Tartu", "I *actually* live in Oslo"), or after the subject's verb, where
/// Swedish and Danish put them (verb second: "Jag heter *faktiskt* Anneli", "jeg bor *nu* i
/// Odense", "vi bor *fortfarande* i Lund") and English puts them after "is" ("my name is
/// *actually* Alex", "mitt namn är *egentligen* Anneli"). Left out, so the patterns for "i
/// work at", "jag heter" and "my name is" read the sentence. The words keep their spans, so
/// values are still cut from the user's own text; `extract` reads the correction marks among
/// them on the sentence as said.
fn without_sentence_adverbs(w: &[Word]) -> Vec<Word> {
    const SUBJECTS: &[&str] = &["i", "we", "jag", "vi", "jeg"];
    const POSSESSIVES: &[&str] = &[
        "my", "our", "min", "mitt", "mina", "vår", "vårt", "mit", "mine", "vores",
    ];
    const BE: &[&str] = &["is", "are", "är", "er"];
    // After the English subject, where "now" and "still" stood before this rule too.
    const AFTER_SUBJECT: &[&str] = &["now", "currently", "presently", "still", "actually"];
    const AFTER_VERB: &[&str] = &[
        "actually",
        "now",
        "currently",
        "still",
        "faktiskt",
        "egentligen",
        "nu",
        "numera",
        "nuförtiden",
        "fortfarande",
        "faktisk",
        "egentlig",
        "stadig",
        "stadigvæk",
    ];
    // Whether the word `n` places before `i` is a word (not a mark) in `set`, or any word.
    let before = |i: usize, n: usize, set: Option<&[&str]>| {
        i.checked_sub(n)
            .and_then(|j| w.get(j))
            .is_some_and(|x| !x.punct && set.is_none_or(|set| set.contains(&x.low.as_str())))
    };
    w.iter()
        .enumerate()
        .filter(|&(i, x)| {
            let word = x.low.as_str();
            let after_subject = before(i, 1, Some(SUBJECTS)) && AFTER_SUBJECT.contains(&word);
            let after_verb = AFTER_VERB.contains(&word)
                && ((before(i, 2, Some(SUBJECTS)) && before(i, 1, None))
                    || (before(i, 3, Some(POSSESSIVES))
                        && before(i, 2, None)
                        && before(i, 1, Some(BE))));
            // "I'm severely allergic to peanuts": how much, not whether.
            let degree = DEGREE_ADVERBS.contains(&word) && {
                let mut j = i + 1;
                while w
                    .get(j)
                    .is_some_and(|n| DEGREE_ADVERBS.contains(&n.low.as_str()))
                {
                    j += 1;
                }
                w.get(j).is_some_and(|n| n.low.starts_with("allergi"))
            };
            !(after_subject || after_verb || degree)
        })
        .map(|(_, x)| x.clone())
        .collect()
}

/// The free statement the sentence `w` makes about the user, in their words: from a
/// [`STATEMENT_LEADS`] opening (or "I/jag/jeg <verb> always/never …") at the start of the
/// sentence to the end of its first clause, with at least one word after the opening for the
/// fixed phrases that need an object. `None` for anything else: a sentence about somebody
/// else, a reported one, an event.
fn statement(text: &str, w: &[Word]) -> Option<String> {
    let start = w
        .iter()
        .take_while(|x| STATEMENT_LEADERS.contains(&x.low.as_str()) || x.low == ",")
        .count();
    let lead_end = STATEMENT_LEADS
        .iter()
        .filter(|p| words::matches_at(w, start, p))
        .map(|p| start + p.split(' ').count())
        .max()
        .or_else(|| {
            let subject = w.get(start)?;
            // "I will always love reading": a lasting taste, though "will" stands where the
            // verb stands ("I'll always remember that trip" stays a sentiment).
            let lasting_taste = w
                .get(start + 3)
                .is_some_and(|v| LASTING_TASTES.contains(&v.low.as_str()));
            let habit = matches!(subject.low.as_str(), "i" | "jag" | "jeg")
                && w.get(start + 1).is_some_and(|v| {
                    !v.punct && (!NOT_HABIT_VERBS.contains(&v.low.as_str()) || lasting_taste)
                })
                && w.get(start + 2)
                    .is_some_and(|a| HABIT_ADVERBS.contains(&a.low.as_str()));
            habit.then_some(start + 3)
        })?;
    // "I've always wanted to try the seafood there", "jag vill aldrig …": a wish, not a fact
    // about the user, whether the wish is the opening's verb or the word after it.
    let upto = (lead_end + 1).min(w.len());
    let present_wish = |i: usize| {
        PRESENT_WISHES.contains(&w[i].low.as_str())
            && w[i + 1..w.len().min(i + 3)]
                .iter()
                .any(|x| WISHED_FOR.contains(&x.low.as_str()))
    };
    if w[start..upto]
        .iter()
        .any(|x| WISHES.contains(&x.low.as_str()))
        || (start..upto).any(present_wish)
    {
        return None;
    }
    let end = (start..w.len())
        .find(|&i| i >= lead_end && is_boundary(&w[i]))
        .unwrap_or(w.len());
    if end <= start {
        return None;
    }
    let last = w[start..end].iter().rev().find(|x| !x.punct)?;
    let words_after = w[lead_end.min(end)..end]
        .iter()
        .filter(|x| !x.punct)
        .count();
    // "I prefer", "jag lider av" need what follows; "I'm an introvert" is whole.
    let needs_object = w
        .get(lead_end - 1)
        .is_some_and(|x| NEEDS_OBJECT.contains(&x.low.as_str()));
    if words_after == 0 && needs_object {
        return None;
    }
    if social(w, start) {
        return None;
    }
    Some(text[w[start].span.start..last.span.end].to_string())
}

/// Whether the clause from `start` to its end addresses the listener ("I'm always here for
/// you", "I love hearing from you") or is a social formula ("I'll keep you posted", "jag hör
/// av mig"): talk that keeps a conversation going, not a trait, taste or habit of the user's.
pub(crate) fn social(w: &[Word], start: usize) -> bool {
    let end = (start..w.len())
        .find(|&i| i > start && is_boundary(&w[i]))
        .unwrap_or(w.len());
    let clause = &w[start..end];
    clause
        .iter()
        .any(|x| SECOND_PERSON.contains(&x.low.as_str()))
        || phatic(clause)
}

/// Whether `clause` is a social formula ([`PHATIC`]: "I'll keep you posted", "let me know
/// how it goes", "vi hörs snart") with nothing after it but words that say how or when
/// ([`PHATIC_TAIL`]) or a clause of time ([`PHATIC_WHEN`]), so "I'll let you know the price
/// by Friday" is no formula and "I'll let you know once I've read it" is one.
pub(crate) fn phatic(clause: &[Word]) -> bool {
    PHATIC.iter().any(|p| {
        find_all(clause, p).into_iter().any(|(_, end)| {
            // "I'll let you know once I'm done reading it": a clause of time after the
            // formula only says when, and keeps it one.
            clause[end..]
                .iter()
                .take_while(|x| !PHATIC_WHEN.contains(&x.low.as_str()))
                .all(|x| x.punct || PHATIC_TAIL.contains(&x.low.as_str()))
        })
    })
}

/// Last words of an opening that needs more words after it ("afraid of", "jag föredrar").
const NEEDS_OBJECT: &[&str] = &[
    "of",
    "from",
    "with",
    "at",
    "about",
    "in",
    "prefer",
    "usually",
    "never",
    "fear",
    "drink",
    "eat",
    "smoke",
    "always",
    "för",
    "av",
    "på",
    "om",
    "föredrar",
    "brukar",
    "aldrig",
    "alltid",
    "inte",
    "ved",
    "til",
    "i",
    "foretrækker",
    "ikke",
    "for",
    "af",
    "altid",
];

/// Ways of saying a value no longer holds; the value that follows is ended, not replaced.
const ENDINGS: &[(&str, Attribute)] = &[
    ("i left", A::Employer),
    ("i quit", A::Employer),
    ("i have left", A::Employer),
    ("i have quit", A::Employer),
    // "I quit Slack": a tool as much as a job; only a value held is ended (`ladder::retract`).
    ("i quit", A::Tool),
    ("i have quit", A::Tool),
    ("i no longer work at", A::Employer),
    ("i no longer work for", A::Employer),
    ("i handed in my notice at", A::Employer),
    ("i resigned from", A::Employer),
    ("jag har slutat på", A::Employer),
    ("jag slutade på", A::Employer),
    ("jag har sagt upp mig från", A::Employer),
    ("jeg har sagt op hos", A::Employer),
    ("jeg sagde op hos", A::Employer),
    ("jeg er stoppet hos", A::Employer),
    ("jeg stoppede hos", A::Employer),
    ("i no longer live in", A::Location),
    ("i moved away from", A::Location),
    ("we moved away from", A::Location),
    ("i moved out of", A::Location),
    ("jag bor inte längre i", A::Location),
    ("vi flyttade från", A::Location),
    ("jag flyttade från", A::Location),
    ("jeg bor ikke længere i", A::Location),
    ("vi flyttede fra", A::Location),
    ("jeg flyttede fra", A::Location),
];

/// Words that negate what follows in a first-person clause ("I'm not", "jag är inte").
const NEGATIONS: &[&str] = &["not", "inte", "ikke"];

/// Phrases that say a value stopped holding ("no longer", "slutat", "holdt op med"), with
/// the words around them that go too ("har slutat att", "er holdt op med at").
#[rustfmt::skip]
const STOPPED: &[&str] = &[
    "no longer", "have stopped", "stopped", "have quit", "quit", "gave up", "have given up",
    "har slutat att", "har slutat", "slutade att", "slutade", "slutat att",
    "slutat", "er holdt op med at", "har holdt op med at", "holdt op med at", "er holdt op med",
    "har holdt op med", "holdt op med",
];

/// Words that only mark time on a negation ("anymore", "längre", "længere"): dropped with it.
#[rustfmt::skip]
const NO_MORE: &[&str] = &[
    "anymore", "any more", "any longer", "längre", "længere", "mere", "mer",
];

/// Infinitives after "slutat"/"holdt op med at", and the present form the rules read
/// ("jag har slutat använda Slack" → "jag använder Slack").
#[rustfmt::skip]
const INFINITIVES: &[(&str, &str)] = &[
    ("använda", "använder"), ("bo", "bor"), ("jobba", "jobbar"), ("arbeta", "arbetar"),
    ("tala", "talar"), ("prata", "pratar"), ("vara", "är"), ("gilla", "gillar"),
    ("älska", "älskar"), ("bruge", "bruger"), ("arbejde", "arbejder"), ("tale", "taler"),
    ("være", "er"), ("elske", "elsker"), ("using", "use"), ("working", "work"),
    ("living", "live"), ("speaking", "speak"),
];

/// Words that may open a clause before its first-person subject ("but I'm not …").
#[rustfmt::skip]
const CLAUSE_LEADERS: &[&str] = &[
    "and", "but", "also", "honestly", "actually", "no", "so", "well", "och", "men", "också",
    "ärligt", "faktiskt", "nej", "så", "og", "også", "ærligt", "faktisk", "nej",
];

/// What a first-person negation in sentence `w` denies: "I'm not allergic to peanuts
/// anymore", "I no longer live in Oslo", "jag är inte allergisk mot nötter längre", "jag har
/// slutat använda Slack", "jeg er ikke længere allergisk over for jordnødder", "jeg er holdt op
/// med at bruge Slack". The negation is taken out and the rest read by the same rules as
/// [`extract`]; the claims it gives are what the user says no longer holds (the caller marks
/// them `ends`), with the index of the clause's first word. `None` unless the clause holding
/// the negation opens with the user as subject ("I", "we", "jag", "vi", "jeg"), so "my sister
/// is not allergic anymore" and "Oskar doesn't live here any more" deny nothing of the user's.
/// A denied ending ("I haven't left Nordhav") and a family or pet word are never read. The
/// caller has already refused hedges and questions.
fn negated(text: &str, w: &[Word]) -> Option<(usize, Vec<Claim>)> {
    let mark = (0..w.len()).find(|&i| {
        NEGATIONS.contains(&w[i].low.as_str()) || STOPPED.iter().any(|p| words::matches_at(w, i, p))
    })?;
    let mut start = mark;
    while start > 0 && !is_boundary(&w[start - 1]) {
        start -= 1;
    }
    let subject = (start..mark).find(|&i| !CLAUSE_LEADERS.contains(&w[i].low.as_str()))?;
    if !FIRST_PERSON.contains(&w[subject].low.as_str()) {
        return None;
    }
    let mut kept: Vec<String> = Vec::new();
    let mut i = start;
    let mut infinitive_next = false;
    while i < w.len() {
        if let Some(n) = STOPPED
            .iter()
            .chain(NO_MORE)
            .filter(|p| words::matches_at(w, i, p))
            .map(|p| p.split(' ').count())
            .max()
        {
            infinitive_next = STOPPED.iter().any(|p| words::matches_at(w, i, p));
            i += n;
            continue;
        }
        let x = &w[i];
        // "do not live" → "live": the auxiliary goes with its negation.
        let aux =
            matches!(x.low.as_str(), "do" | "does") && w.get(i + 1).is_some_and(|n| n.low == "not");
        if aux || NEGATIONS.contains(&x.low.as_str()) {
            i += 1;
            continue;
        }
        let own = &text[x.span.clone()];
        let word = if infinitive_next {
            INFINITIVES
                .iter()
                .find(|(inf, _)| *inf == x.low)
                .map_or(own, |(_, present)| *present)
        } else if own.to_lowercase() == x.low {
            own
        } else {
            // A contraction's part ("I'm" → "i", "am").
            x.low.as_str()
        };
        infinitive_next = false;
        kept.push(word.to_string());
        i += 1;
    }
    let rest = kept.join(" ");
    let denied: Vec<Claim> = extract(&rest)
        .into_iter()
        .filter(|c| !c.ends && !matches!(c.attribute, A::Family | A::Pet))
        .collect();
    (!denied.is_empty()).then_some((start, denied))
}

/// The capitalised value after "not"/"inte"/"ikke" in a sentence ("Alex, not Alice"), when
/// the negation follows a comma or the value: the old value a correction names.
fn named_as_wrong(text: &str, w: &[Word]) -> Option<String> {
    let at = w.iter().enumerate().skip(1).position(|(i, x)| {
        matches!(x.low.as_str(), "not" | "inte" | "ikke") && w[i - 1].low == ","
    })?;
    proper(text, w, at + 2)
}

/// Whether the sentence is a question, a hedge or a hypothetical.
pub(crate) fn is_hedged(w: &[Word]) -> bool {
    w.last().is_some_and(|x| x.low == "?")
        || w.iter().any(|x| HEDGES.contains(&x.low.as_str()))
        || HEDGE_PHRASES.iter().any(|p| !find_all(w, p).is_empty())
}

/// Whether a pattern at `start` opens its clause (nothing before it but a few linking or
/// framing words), so "Oskar says I love football" and "my friend who said I …" do not count.
fn clause_initial(w: &[Word], start: usize) -> bool {
    let mut i = start;
    while i > 0 {
        let prev = &w[i - 1];
        if is_boundary(prev) {
            return true;
        }
        if REPORTING.contains(&prev.low.as_str()) || prev.low == "that" || prev.low == "att" {
            return false;
        }
        i -= 1;
    }
    true
}

/// Where the object of a Swedish or Danish liking starts: past the infinitive marker
/// ("Jag älskar *att* segla", "Jeg elsker *at* sejle", "Jeg kan godt lide *at* bage"), so the
/// activity is the object, as the gerund is in English ("I love sailing"). Those languages
/// have no gerund: the infinitive with "att"/"at" is how a liked activity is said, and read
/// as it stands the marker made the object a clause (`NOT_OBJECTS`), so no liking was found.
/// "Jag gillar att du ringer" (that you call) stays a clause: a subject follows the marker.
/// `at` itself for anything else.
fn infinitive_after(pattern: &str, w: &[Word], at: usize) -> usize {
    const SUBJECTS: &[&str] = &[
        "jag", "jeg", "du", "han", "hon", "hun", "vi", "ni", "de", "man", "den", "det", "i",
    ];
    let nordic = pattern.starts_with("jag ") || pattern.starts_with("jeg ");
    let marker = w
        .get(at)
        .is_some_and(|x| matches!(x.low.as_str(), "att" | "at"));
    let verb = w
        .get(at + 1)
        .is_some_and(|x| !x.punct && !x.capital && !SUBJECTS.contains(&x.low.as_str()));
    if nordic && marker && verb { at + 1 } else { at }
}

/// Words that may stand right before "call me" in the user's own request to be called so
/// ("*Please* call me Bert", "you *can* call me Bert", "feel free *to* call me Bert", "*but*
/// call me Bert"): the listener is asked, so the name is the user's to give.
const CALL_ME_REQUEST: &[&str] = &[
    "please", "just", "can", "may", "could", "to", "and", "but", "so", "also", "instead",
];

/// Whether "call me" at `start` reports what others call the user ("people *call me* Bert",
/// "my friends all call me Bert", "they call me Bert"): a subject stands before it in its
/// clause, so it is a nickname the user is known by, not the name they give. A fresh user's
/// "My name is Bertil Andersson, but people call me Bert" stored the name "Bert", superseding
/// the full name said in the same breath.
fn called_by_others(w: &[Word], start: usize) -> bool {
    w[start].low == "call" && subject_before(w, start)
}

/// Whether the word before `at` belongs to a subject in the same clause: not a clause
/// boundary, and not one of the words of a request to the listener ([`CALL_ME_REQUEST`]).
fn subject_before(w: &[Word], at: usize) -> bool {
    at > 0 && !is_boundary(&w[at - 1]) && !CALL_ME_REQUEST.contains(&w[at - 1].low.as_str())
}

/// What others call the user, in the user's words, and where it starts: a clause with a
/// subject of its own before "call(s) me", "kallar mig" or "kalder mig" and a name after
/// it ("people call me Bert", "men alla kallar mig Bert", "folk kalder mig Bert"), from that
/// subject to the end of the name. A nickname is no name of the user's: it never supersedes
/// the name they give ([`called_by_others`]), and is kept beside it as a statement about them.
fn nickname(text: &str, w: &[Word]) -> Option<(usize, String)> {
    const CALL: &[&str] = &["call", "calls", "kallar", "kalder"];
    const ME: &[&str] = &["me", "mig"];
    let k = (1..w.len().saturating_sub(2)).find(|&k| {
        CALL.contains(&w[k].low.as_str())
            && ME.contains(&w[k + 1].low.as_str())
            && w[k + 2].capital
            && !w[k + 2].punct
            && subject_before(w, k)
            && !REPORTING.contains(&w[k - 1].low.as_str())
    })?;
    let mut from = k;
    while from > 0 && !is_boundary(&w[from - 1]) {
        from -= 1;
    }
    while from < k && STATEMENT_LEADERS.contains(&w[from].low.as_str()) {
        from += 1;
    }
    if from == k || !clause_initial(w, from) {
        return None;
    }
    let name = proper(text, w, k + 2)?;
    let end = w[k + 2].span.start + name.len();
    Some((from, text[w[from].span.start..end].to_string()))
}

/// Whether the word at `start` sits inside quotation marks (an odd number of quote marks
/// before it in the text) or on a quoted line (`> …`).
pub(super) fn is_quoted(text: &str, w: &[Word], start: usize) -> bool {
    let Some(at) = w.get(start).map(|x| x.span.start) else {
        return false;
    };
    let before = &text[..at];
    let marks = before
        .chars()
        .filter(|c| matches!(c, '"' | '“' | '”' | '«' | '»' | '„'))
        .count();
    let line = before.rsplit('\n').next().unwrap_or_default();
    marks % 2 == 1 || line.trim_start().starts_with('>')
}

/// A run of capitalised words from `at`, up to four, in the text's own spelling.
fn proper(text: &str, w: &[Word], at: usize) -> Option<String> {
    let mut end = at;
    while end < w.len() && end - at < 4 && !w[end].punct && w[end].capital {
        end += 1;
    }
    (end > at).then(|| text[w[at].span.start..w[end - 1].span.end].to_string())
}

/// Up to four words from `at` to the end of the clause or a stop word.
fn phrase(text: &str, w: &[Word], at: usize) -> Option<String> {
    let mut end = at;
    while end < w.len() && end - at < 4 && !w[end].punct && !STOPS.contains(&w[end].low.as_str()) {
        end += 1;
    }
    (end > at).then(|| text[w[at].span.start..w[end - 1].span.end].to_string())
}

/// The longest preference object, in words: a gerund's phrase ("curling up with a good book")
/// is longer than [`phrase`]'s four words.
const OBJECT_WORDS: usize = 8;

/// The object of a liking from `at`: [`phrase`], read on to the end of the clause (up to
/// [`OBJECT_WORDS`] words) when it was cut short: at its four-word limit ("sinking into
/// different magical" → "… magical worlds"), or after a gerund at a preposition
/// ("experimenting" → "experimenting in the kitchen", "getting lost in fantasy stories").
/// `None` when the clause runs on past [`OBJECT_WORDS`] (a cut value is no object).
fn liked_object(text: &str, w: &[Word], at: usize) -> Option<String> {
    let short = phrase(text, w, at)?;
    let mut end = at;
    while end < w.len() && end - at < 4 && !w[end].punct && !STOPS.contains(&w[end].low.as_str()) {
        end += 1;
    }
    let n = end - at;
    let next = w.get(end).filter(|x| !x.punct);
    let cut_at_limit = n >= 4 && next.is_some_and(|x| !STOPS.contains(&x.low.as_str()));
    // A gerund alone or with its particle ("experimenting", "getting lost", "curling up"),
    // where "camping trips" is a gerund before its noun, whole already.
    let gerund = w[at].low.chars().count() > 4
        && w[at].low.ends_with("ing")
        && (n == 1
            // "playing different songs" (on the piano): a gerund with its own object, told
            // by the determiner after it, where "camping trips" has a noun there.
            || w.get(at + 1).is_some_and(|x| GERUND_OBJECT_OPENERS.contains(&x.low.as_str()))
            || (n == 2
                && (w[at + 1].low.ends_with("ed")
                    || matches!(
                        w[at + 1].low.as_str(),
                        "up" | "out"
                            | "lost"
                            | "away"
                            | "back"
                            | "down"
                            | "off"
                            | "around"
                            | "time"
                    ))));
    let cut_at_preposition = gerund && next.is_some_and(|x| PREPOSITIONS.contains(&x.low.as_str()));
    // "action and sci-fi movies": one word, then a longer conjunct, may be a modifier of the
    // conjunct's noun ("action movies"), so cutting at "and" would leave a bare modifier
    // ("likes action"). The whole coordination is kept as the object; "pizza and ice cream"
    // read whole is true too. A gerund ("hiking and long walks") names its own activity.
    let coordinated_modifier = n == 1
        && !gerund
        && next.is_some_and(|x| COORDINATORS.contains(&x.low.as_str()))
        && w[end + 1..]
            .iter()
            .take_while(|x| !x.punct && !STOPS.contains(&x.low.as_str()))
            .count()
            >= 2;
    if coordinated_modifier {
        let mut e = end + 1;
        while e < w.len() && !w[e].punct && !STOPS.contains(&w[e].low.as_str()) {
            e += 1;
        }
        return (e - at <= OBJECT_WORDS)
            .then(|| text[w[at].span.start..w[e - 1].span.end].to_string());
    }
    if !cut_at_limit && !cut_at_preposition {
        return Some(short);
    }
    let mut e = end;
    while e < w.len() && !w[e].punct && !CLAUSE_ENDS.contains(&w[e].low.as_str()) {
        if e - at >= OBJECT_WORDS {
            return None;
        }
        e += 1;
    }
    // "going to the beach a lot": "a" before "lot" is no part of the object.
    while e > end && STOPS.contains(&w[e - 1].low.as_str()) {
        e -= 1;
    }
    Some(text[w[at].span.start..w[e - 1].span.end].to_string())
}

/// Whether a preference object only points at something in the conversation: it holds an
/// object pronoun ("watching *them* play", "having *it* around", "se *dem* leka") or ends in a
/// demonstrative and one word ("escaping to *that world*", "*den där* boken", "*dette* sted"):
/// the thing liked is named nowhere in the user's words, so no lasting taste can be read
/// (issue 5, LoCoMo conv-43).
fn points_back(object: &str) -> bool {
    let words: Vec<String> = object
        .split_whitespace()
        .map(|x| {
            x.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|x| !x.is_empty())
        .collect();
    words
        .iter()
        .any(|x| POINTING_PRONOUNS.contains(&x.as_str()))
        || (words.len() >= 2 && DEMONSTRATIVES.contains(&words[words.len() - 2].as_str()))
}

/// A role (lowercase words) up to `at`/`for`/`på`/`hos`, then the employer if one follows.
fn role_at(text: &str, w: &[Word], at: usize) -> (Option<String>, Option<String>) {
    let mut end = at;
    while end < w.len()
        && end - at < 4
        && !w[end].punct
        && !w[end].capital
        && !STOPS.contains(&w[end].low.as_str())
    {
        end += 1;
    }
    if end == at {
        return (None, None);
    }
    let role = text[w[at].span.start..w[end - 1].span.end].to_string();
    if NOT_ROLES.contains(&w[at].low.as_str()) || NOT_ROLES_MORE.contains(&w[at].low.as_str()) {
        return (None, None);
    }
    let employer = match w.get(end).map(|x| x.low.as_str()) {
        Some("at" | "for" | "på" | "hos") => proper(text, w, end + 1),
        _ => None,
    };
    (Some(role), employer)
}

/// Words that join the last item of a list to the others.
const LIST_JOINERS: &[&str] = &["and", "or", "och", "eller", "samt", "og"];

/// [`phrase`]s from `at` joined by [`LIST_JOINERS`], with commas between the ones before the
/// last ("peanuts, shellfish and latex" → three). A comma with no joiner after it ends the
/// list there ("peanuts, properly allergic" → `peanuts`): what follows is a remark, not an
/// item. A fresh user's "I'm allergic to peanuts and shellfish" kept only the peanuts.
fn phrase_list(text: &str, w: &[Word], at: usize) -> Vec<String> {
    let mut items = Vec::new();
    let mut joined_by: Vec<bool> = Vec::new();
    let mut i = at;
    while let Some(v) = phrase(text, w, i) {
        items.push(v);
        while i < w.len() && !w[i].punct && !STOPS.contains(&w[i].low.as_str()) {
            i += 1;
        }
        match w.get(i).map(|x| x.low.as_str()) {
            Some(",")
                if w.get(i + 1)
                    .is_some_and(|n| LIST_JOINERS.contains(&n.low.as_str())) =>
            {
                joined_by.push(true);
                i += 2;
            }
            Some(",") => {
                joined_by.push(false);
                i += 1;
            }
            Some(j) if LIST_JOINERS.contains(&j) => {
                joined_by.push(true);
                i += 1;
            }
            _ => break,
        }
        if items.len() >= 8 {
            break;
        }
    }
    // Keep the items up to the last one a joiner brought in.
    let keep = joined_by
        .iter()
        .rposition(|&j| j)
        .map_or(1, |last| last + 2)
        .min(items.len());
    items.truncate(keep);
    items
}

/// Proper names separated by commas and `and`/`och`/`og`.
fn proper_list(text: &str, w: &[Word], at: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = at;
    while let Some(v) = proper(text, w, i) {
        let n = words::tokenize(&v).len();
        out.push(v);
        i += n;
        match w.get(i).map(|x| x.low.as_str()) {
            Some("," | "and" | "och" | "og") => i += 1,
            _ => break,
        }
    }
    out
}

/// "my daughter Maja", "min hund heter Rex", "my wife's name is Kaja", "our dog Bosse", from
/// the possessive at `start` and the relation word at `at`. The claim ends rather than starts
/// when the words say the relation is over: a former one ("my ex-boyfriend Tom", "my late
/// husband Bo", "min förra pojkvän Ali"; "my ex Tom" ends each partner word with that name),
/// or a death ("My cat Misse died", "Vår hund Sixten dog i våras", "we lost our dog Bosse";
/// said without a name, "Vores kat døde", the relation word alone ends every held value
/// that starts with it, see `ladder::retract`).
fn kin(text: &str, w: &[Word], start: usize, at: usize) -> Vec<Claim> {
    let claim = |attribute: Attribute, value: String, ends: bool| Claim {
        attribute,
        value,
        correction: false,
        quoted: false,
        replaces: None,
        ends,
    };
    let Some(first) = w.get(at) else {
        return Vec::new();
    };
    let is_kin = |x: &str| FAMILY.contains(&x) || PETS.contains(&x);
    // "my late husband", "min förra pojkvän", "my ex Tom".
    let marked_former = FORMER_KIN.contains(&first.low.as_str());
    if marked_former
        && w.get(at + 1).is_some_and(|x| !is_kin(&x.low))
        && let Some(name) = proper(text, w, at + 1).filter(|n| !n.contains('\''))
    {
        return PARTNERS
            .iter()
            .map(|r| claim(A::Family, format!("{r} {name}"), true))
            .collect();
    }
    let at = if marked_former { at + 1 } else { at };
    let Some(relation) = w.get(at) else {
        return Vec::new();
    };
    // "ex-boyfriend", "exfru", "ekskæreste": the relation with "ex" written on it.
    let (relation_word, ex) = match EX_PREFIXES
        .iter()
        .find_map(|p| relation.low.strip_prefix(p).filter(|r| FAMILY.contains(r)))
    {
        Some(rest) => (rest.to_string(), true),
        None => (relation.low.clone(), false),
    };
    let attribute = if FAMILY.contains(&relation_word.as_str()) {
        A::Family
    } else if PETS.contains(&relation_word.as_str()) {
        A::Pet
    } else {
        return Vec::new();
    };
    let former = marked_former || ex;
    let mut i = at + 1;
    for filler in [
        "is called",
        "name is",
        "heter",
        "hedder",
        "is named",
        "som heter",
        "der hedder",
    ] {
        if words::matches_at(w, i, filler) {
            i += filler.split(' ').count();
            break;
        }
    }
    let name = proper(text, w, i);
    let after = name
        .as_deref()
        .map_or(at + 1, |n| i + words::tokenize(n).len());
    let died = died_after(w, after) || lost_before(w, start);
    match name {
        Some(name) => {
            // "my daughter Sara's birthday": the possessive is not part of the name.
            let name = name
                .strip_suffix("'s")
                .or_else(|| name.strip_suffix("’s"))
                .map_or(name.clone(), str::to_string);
            vec![claim(
                attribute,
                format!("{relation_word} {name}"),
                former || died,
            )]
        }
        None if died => vec![claim(attribute, relation_word, true)],
        None => Vec::new(),
    }
}

/// Whether the words from `at` say the one just named died ([`DIED`]: "died", "passed
/// away", "dog", "døde", "er død"), past a comma or one adverb ("sadly", "tyvärr").
fn died_after(w: &[Word], at: usize) -> bool {
    const BETWEEN: &[&str] = &[
        ",",
        "sadly",
        "tragically",
        "recently",
        "unfortunately",
        "tyvärr",
        "nyligen",
        "desværre",
        "nylig",
        "also",
        "också",
        "også",
    ];
    let mut i = at;
    while i < w.len() && i < at + 2 && BETWEEN.contains(&w[i].low.as_str()) {
        i += 1;
    }
    DIED.iter().any(|p| words::matches_at(w, i, p))
}

/// Whether the words before the possessive at `start` say the user lost who follows ("we
/// *lost* our dog Bosse", "vi *förlorade* vår katt", "we had to *put down* our cat"), or, in
/// Swedish and Danish word order after a fronted time, that they died ("I våras *dog* vår
/// hund Sixten", "I går *døde* vores kat").
fn lost_before(w: &[Word], start: usize) -> bool {
    let nordic = matches!(
        w.get(start).map(|x| x.low.as_str()),
        Some("min" | "mitt" | "mit" | "vår" | "vårt" | "våra" | "mina" | "mine" | "vores")
    );
    let inverted = start > 0 && nordic && matches!(w[start - 1].low.as_str(), "dog" | "døde");
    inverted
        || LOST_BEFORE.iter().any(|p| {
            let n = p.split(' ').count();
            start >= n && words::matches_at(w, start - n, p)
        })
}

/// The partner facts a breakup in sentence `w` ends, with where it is said: "we broke up",
/// "vi har gjort slut", "vi er gået fra hinanden" ([`BREAKUPS`]) end every partner word
/// ([`PARTNERS`], each a prefix of the held values, see `ladder::retract`); "I broke up with
/// Tom", "jag har gjort slut med min pojkvän", "jeg har slået op med Tom" ([`BREAKUPS_WITH`])
/// end the partner named (a given name alone, so "I divorced Nordhav" names nobody). Only a
/// clause that opens with the user; the caller has refused hedges and questions.
fn broken_up(text: &str, w: &[Word]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for p in BREAKUPS {
        for (start, _) in find_all(w, p) {
            if clause_initial(w, start) {
                out.extend(PARTNERS.iter().map(|r| (start, (*r).to_string())));
            }
        }
    }
    for p in BREAKUPS_WITH {
        for (start, end) in find_all(w, p) {
            if !clause_initial(w, start) {
                continue;
            }
            let possessive = w
                .get(end)
                .is_some_and(|x| POSSESSIVES.contains(&x.low.as_str()));
            if possessive {
                if let Some(r) = w
                    .get(end + 1)
                    .filter(|x| PARTNERS.contains(&x.low.as_str()))
                {
                    let value = match proper(text, w, end + 2) {
                        Some(name) => format!("{} {name}", r.low),
                        None => r.low.clone(),
                    };
                    out.push((start, value));
                }
            } else if let Some(name) = proper(text, w, end).filter(|_| {
                w.get(end)
                    .is_some_and(|x| crate::capture::rules::is_given_name(&x.low))
            }) {
                out.extend(PARTNERS.iter().map(|r| (start, format!("{r} {name}"))));
            }
        }
    }
    out
}

/// Where the user says they moved, in the user's spelling, with where the clause starts: a
/// first-person subject, its auxiliary, a past form of moving ([`MOVED`]), adverbs of when or
/// which way ([`MOVE_ADVERBS`]), then the destination after "to"/"till"/"til", past an origin
/// ("from Copenhagen") if one is named: "We moved from Copenhagen to Aarhus", "Vi har flyttat
/// från Göteborg till Stockholm", "Vi er lige flyttet til Aalborg", "We've just moved back to
/// Oslo". The origin is never the home. A plan ("we're moving to Berlin") has no past form.
fn moved_to(text: &str, w: &[Word]) -> Option<(usize, String)> {
    let skip = |mut i: usize, set: &[&str]| {
        while w.get(i).is_some_and(|x| set.contains(&x.low.as_str())) {
            i += 1;
        }
        i
    };
    (0..w.len()).find_map(|s| {
        if !FIRST_PERSON.contains(&w[s].low.as_str()) || !clause_initial(w, s) {
            return None;
        }
        let mut i = s + 1;
        if w.get(i).is_some_and(|x| MOVE_AUX.contains(&x.low.as_str())) {
            i += 1;
        }
        i = skip(i, MOVE_ADVERBS);
        if !w.get(i).is_some_and(|x| MOVED.contains(&x.low.as_str())) {
            return None;
        }
        i = skip(i + 1, MOVE_ADVERBS);
        if w.get(i)
            .is_some_and(|x| MOVE_FROM.contains(&x.low.as_str()))
        {
            let origin = proper(text, w, i + 1)?;
            i = skip(i + 1 + words::tokenize(&origin).len(), MOVE_ADVERBS);
        }
        if !w.get(i).is_some_and(|x| MOVE_TO.contains(&x.low.as_str())) {
            return None;
        }
        proper(text, w, i + 1).map(|place| (s, place))
    })
}

/// The name a self-introduction gives from `at` ("I'm *Erik Lindqvist*", "Jag är *Erik*",
/// "Hej, jeg er *Mette*"): capitalised words whose first is a common given name (the capture's
/// names.txt), none of them possessive, with the clause ending after them or going on with a
/// stop word ("I'm Anna and …", "I'm Anna from Oslo"). A name that is also a common word
/// ([`NAME_OR_WORD`]: "I'm Frank", "I'm Christian") needs a surname after it. So "I'm Tired."
/// and "I'm Swedish" name nobody.
fn self_intro(text: &str, w: &[Word], at: usize) -> Option<String> {
    let first = w.get(at).filter(|x| !x.punct && x.capital)?;
    if !crate::capture::rules::is_given_name(&first.low) {
        return None;
    }
    let name = proper(text, w, at)?;
    let n = words::tokenize(&name).len();
    if name.contains('\'') || name.contains('’') {
        return None;
    }
    if n == 1 && NAME_OR_WORD.contains(&first.low.as_str()) {
        return None;
    }
    let ends_clause = w
        .get(at + n)
        .is_none_or(|x| x.punct || STOPS.contains(&x.low.as_str()) || x.low == "here");
    ends_clause.then_some(name)
}

/// The occupation nouns of occupations.txt, lowercase.
fn occupations() -> &'static std::collections::HashSet<&'static str> {
    static WORDS: std::sync::OnceLock<std::collections::HashSet<&'static str>> =
        std::sync::OnceLock::new();
    WORDS.get_or_init(|| {
        include_str!("occupations.txt")
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .flat_map(|l| l.split('|'))
            // Each part opens with its language code ("en", "sv", "da").
            .flat_map(|part| part.split_whitespace().skip(1))
            .collect()
    })
}

/// Whether a role read after "I'm a" / "jag är" / "jeg er" names an occupation: its last word
/// is one of occupations.txt, or a Swedish or Danish compound ending in one of five letters or
/// more ("gymnasielärare", "specialsygeplejerske"), and no word before it makes it a former
/// job or a judgement ([`NOT_OCCUPATION_MODIFIERS`]: "a retired teacher", "a good cook"). An
/// article first ("en lärare") is left to the pattern that reads past it.
fn is_occupation(role: &str) -> bool {
    let words: Vec<String> = role.split_whitespace().map(str::to_lowercase).collect();
    let Some(last) = words.last() else {
        return false;
    };
    let judged = words.iter().any(|x| {
        NOT_OCCUPATION_MODIFIERS.contains(&x.as_str())
            || x.starts_with("ex-")
            || matches!(x.as_str(), "a" | "an" | "en" | "ett" | "et")
    });
    let set = occupations();
    !judged
        && (set.contains(last.as_str())
            || set
                .iter()
                .any(|f| f.chars().count() >= 5 && last.len() > f.len() && last.ends_with(f)))
}

/// First-person subjects that open a statement by the user about themselves.
const FIRST_PERSON: &[&str] = &["i", "we", "jag", "vi", "jeg"];

/// Possessives that open a statement about something of the user's ("my name is …").
#[rustfmt::skip]
const POSSESSIVES: &[&str] = &[
    "my", "our", "min", "mitt", "mina", "vår", "vårt", "våra", "mit", "mine", "vores",
];

/// Nouns after a possessive that make the sentence about the user, not about another person
/// ("my name", "mitt jobb", "min tidszone").
#[rustfmt::skip]
const SELF_NOUNS: &[&str] = &[
    "name", "namn", "navn", "job", "jobb", "work", "arbete", "arbejde", "role", "roll", "rolle",
    "title", "titel", "timezone", "time", "tidszon", "tidszone", "native", "modersmål", "diet",
    "kost", "language", "languages", "språk", "sprog", "allergy", "allergi", "home", "hem",
    "hjem", "hometown", "hemstad", "hjemby", "favourite", "favorite", "favorit", "favoritt",
    "first", "första", "første", "new", "nya", "nye", "nyt", "current", "nuvarande", "nuværende",
];

/// Subjects and possessives that make a clause about somebody other than the user.
#[rustfmt::skip]
const OTHER_SUBJECTS: &[&str] = &[
    "you", "your", "he", "she", "they", "it", "his", "her", "their", "its", "du", "din", "ditt",
    "dina", "ni", "er", "han", "hon", "hen", "de", "dom", "hans", "hennes", "deras", "dit",
    "dine", "jeres", "hun", "hendes", "deres", "den", "det",
];

/// How many words into a quote its clause's subject may come ("Most evenings I …").
const SUBJECT_REACH: usize = 3;

/// Whether the words at byte range `span` of `text` (the user's own message or episode) are
/// the user speaking about themselves, outright: the attribution check an LLM's fact must pass
/// before it may enter the ladder (issue 5; seed 003, failure 2). `None` when they are; else
/// why not, in a few words: a hedge or question, quoted words, reported speech, or a clause
/// whose subject is not the user ("Oskar hates football", "my sister lives in Bergen"). With
/// `kin` a possessive before a family or pet word is the user's own ("my daughter Maja"), for
/// the `family` and `pet` attributes only. Same word lists as [`extract`], so no more lenient
/// than the rules.
pub(crate) fn not_the_users_own(
    text: &str,
    span: std::ops::Range<usize>,
    kin: bool,
) -> Option<&'static str> {
    let all = words::tokenize(text);
    let Some(q) = all
        .iter()
        .position(|x| x.span.start >= span.start && !x.punct)
    else {
        return Some("no words");
    };
    let Some(sentence) = words::sentences(text, &all)
        .into_iter()
        .find(|s| s.contains(&q))
    else {
        return Some("no words");
    };
    let w = &all[sentence.clone()];
    let qi = q - sentence.start;
    if is_hedged(w) {
        return Some("a hedge or a question");
    }
    if is_quoted(text, w, qi) {
        return Some("quoted words");
    }
    if w[..qi].iter().any(|x| REPORTING.contains(&x.low.as_str())) {
        return Some("reported speech");
    }
    // The clause's subject: the first pronoun or possessive from the clause's start to a few
    // words into the quote ("No, I live …", "Most evenings I sketch …"). A named person or
    // "my sister" first, or no first person at all, is somebody else speaking or spoken of.
    let mut c = qi;
    while c > 0 && !is_boundary(&w[c - 1]) {
        c -= 1;
    }
    let reach = (qi + SUBJECT_REACH).min(w.len() - 1);
    for i in c..=reach {
        if i > qi && is_boundary(&w[i]) {
            break;
        }
        let low = w[i].low.as_str();
        if FIRST_PERSON.contains(&low) {
            return None;
        }
        if POSSESSIVES.contains(&low) {
            let next = w.get(i + 1).map_or("", |x| x.low.as_str());
            let mother_tongue = next == "mother" && w.get(i + 2).is_some_and(|x| x.low == "tongue");
            let own = SELF_NOUNS.contains(&next)
                || mother_tongue
                || (kin && (FAMILY.contains(&next) || PETS.contains(&next)));
            return (!own).then_some(NOT_THE_USER);
        }
        if OTHER_SUBJECTS.contains(&low) {
            return Some(NOT_THE_USER);
        }
    }
    Some(NOT_THE_USER)
}

/// Why a clause is not the user's own statement about themselves.
const NOT_THE_USER: &str = "not about the user (another person is the subject)";

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claims(text: &str) -> Vec<(String, String)> {
        extract(text)
            .into_iter()
            .map(|c| (c.attribute.key(), c.value))
            .collect()
    }

    fn pair(a: &str, v: &str) -> (String, String) {
        (a.to_string(), v.to_string())
    }

    /// A fresh user's "Jag älskar att segla" gave no liking where "I love sailing" gives
    /// `likes sailing`: Swedish and Danish say a liked activity with the infinitive
    /// ("att"/"at" + verb), where English uses the gerund, so the activity is the object.
    #[rstest::rstest]
    #[case::en_gerund("I love sailing.", "sailing")]
    #[case::sv_alskar("Jag älskar att segla.", "segla")]
    #[case::sv_gillar("Jag gillar att baka bröd.", "baka bröd")]
    #[case::sv_gillar_noun("Jag gillar jazz.", "jazz")]
    #[case::da_elsker("Jeg elsker at sejle.", "sejle")]
    #[case::da_kan_godt_lide("Jeg kan godt lide at bage.", "bage")]
    #[case::da_kan_godt_lide_noun("Jeg kan godt lide jazz.", "jazz")]
    fn a_liked_activity_in_the_infinitive_is_liked(#[case] text: &str, #[case] object: &str) {
        assert_eq!(
            claims(text),
            [pair(&format!("preference:{object}"), "likes")],
            "`{text}` says the user likes {object}"
        );
    }

    /// "att" is also "that": a clause after it ("Jag gillar att du ringer", I like that you
    /// call) names no activity of the user's, and no liking is read from it.
    #[test]
    fn a_that_clause_after_a_liking_is_no_object() {
        let found = claims("Jag gillar att du ringer.");
        assert!(
            !found.iter().any(|(a, _)| a.starts_with("preference:")),
            "a clause with its own subject is no liked thing: {found:?}"
        );
    }

    /// A fresh user's "My name is Bertil Andersson, but people call me Bert" stored the name
    /// "Bert", superseding the full name. What other people call the user is a nickname: the
    /// name stays the one the user gives, and the nickname is kept beside it, in their words.
    #[rstest::rstest]
    #[case::en(
        "My name is Bertil Andersson, but people call me Bert.",
        "Bertil Andersson",
        "people call me Bert"
    )]
    #[case::en_calls(
        "My name is Bertil Andersson. Everyone calls me Bert.",
        "Bertil Andersson",
        "Everyone calls me Bert"
    )]
    #[case::en_friends(
        "I am called Margaret, my friends call me Maggie.",
        "Margaret",
        "my friends call me Maggie"
    )]
    #[case::sv(
        "Jag heter Bertil Andersson, men alla kallar mig Bert.",
        "Bertil Andersson",
        "alla kallar mig Bert"
    )]
    #[case::da(
        "Jeg hedder Bertil Andersson, men folk kalder mig Bert.",
        "Bertil Andersson",
        "folk kalder mig Bert"
    )]
    fn a_nickname_others_use_is_not_the_name(
        #[case] text: &str,
        #[case] name: &str,
        #[case] nick: &str,
    ) {
        let found = claims(text);
        let names: Vec<&str> = found
            .iter()
            .filter(|(a, _)| a == "name")
            .map(|(_, v)| v.as_str())
            .collect();
        assert_eq!(
            names,
            [name],
            "`{text}`: the name given is the only name, the nickname must not supersede it"
        );
        assert!(
            found.contains(&pair("statement", nick)),
            "`{text}`: the nickname is kept as a statement about the user: {found:?}"
        );
    }

    /// Asking to be called something is the user giving the name they go by: still a name.
    #[rstest::rstest]
    #[case::imperative("Call me Bert.")]
    #[case::please("Please call me Bert.")]
    #[case::you_can("You can call me Bert.")]
    #[case::after_name("My name is Bertil, but please call me Bert.")]
    fn asking_to_be_called_so_is_a_name(#[case] text: &str) {
        assert!(
            claims(text).contains(&pair("name", "Bert")),
            "`{text}` asks the listener to use the name Bert: {:?}",
            claims(text)
        );
    }

    #[rstest::rstest]
    #[case::en(
        "I'm terrified of flying, so I take the train.",
        "I'm terrified of flying"
    )]
    #[case::en_habit("I never drink coffee after noon.", "I never drink coffee after noon")]
    #[case::sv("Jag är livrädd för ormar.", "Jag är livrädd för ormar")]
    #[case::sv_habit("Jag äter aldrig kött.", "Jag äter aldrig kött")]
    #[case::da("Jeg lider af migræne.", "Jeg lider af migræne")]
    #[case::da_whole("Jeg er et morgenmenneske!", "Jeg er et morgenmenneske")]
    // A real habit said with "always", next to the social "I'm always here for you".
    #[case::up_early("I'm always up early, even on weekends.", "I'm always up early")]
    #[case::up_early_sv("Jag är alltid uppe tidigt.", "Jag är alltid uppe tidigt")]
    #[case::love_for(
        "I've always had a love for horses!",
        "I've always had a love for horses"
    )]
    #[case::before_annotation(
        "I never drink coffee after noon [2023-05-01 – 2023-05-02].",
        "I never drink coffee after noon"
    )]
    // "will" in the verb's place, but a verb of lasting taste after "always" (LoCoMo conv-43:
    // this true trait was lost to the sentiment rule).
    #[case::will_always_love("I will always love reading.", "I will always love reading")]
    #[case::will_always_love_da("Jeg vil altid elske jazz.", "Jeg vil altid elske jazz")]
    // "want" with an object is a taste; "want to" is a wish (below).
    #[case::want_object("I always want my coffee black.", "I always want my coffee black")]
    fn free_statement_from(#[case] text: &str, #[case] value: &str) {
        assert_eq!(
            claims(text),
            [pair("statement", value)],
            "`{text}` says something lasting about the user with no named attribute: one statement, the first clause in their words"
        );
    }

    #[test]
    fn named_attribute_is_not_also_a_statement() {
        assert_eq!(
            claims("Jeg hader koriander."),
            [pair("preference:koriander", "dislikes")],
            "a sentence that names an attribute gives that fact only"
        );
    }

    #[rstest::rstest]
    #[case::seed_003_hedge("I might try Python.")]
    #[case::hedge_sv("Jag kanske flyttar till Berlin.")]
    #[case::hedge_da("Måske flytter jeg til Aarhus.")]
    #[case::question("Do I live in Oslo?")]
    #[case::friend_sv("Min kompis Oskar avskyr fotboll, men hans pappa har ändå anmält honom.")]
    #[case::friend_en("Oskar hates football.")]
    #[case::reported("Oskar says I love football.")]
    #[case::future("I will move to Berlin next year.")]
    #[case::not_a_role("I'm a bit tired today.")]
    #[case::statement_about_friend("Oskar is terrified of flying.")]
    #[case::statement_reported("My friend says I'm afraid of dogs.")]
    #[case::statement_hedged("I might be afraid of heights.")]
    #[case::statement_question("Am I afraid of flying?")]
    #[case::statement_without_object("I'm afraid of.")]
    #[case::statement_transient("I'm tired today.")]
    // Social talk addressed to the listener states no trait (LoCoMo-style two-person chats).
    #[case::phatic_here_for_you("I'm always here for you, Mel!")]
    #[case::phatic_sv("Jag finns alltid här för dig.")]
    #[case::phatic_da("Jeg er altid her for dig.")]
    #[case::social_like("I love hearing from you!")]
    #[case::social_like_sv("Jag älskar att prata med dig.")]
    // A quantity or a photo's details are no lasting taste; a light verb alone is a fragment.
    #[case::quantity("I love all the yellow leaves, it looks so cozy.")]
    #[case::us("I believe in us!")]
    #[case::quantity_both("I'm a fan of both classical like Bach and Mozart.")]
    #[case::fragment_being("It reminds me why I love being a mom.")]
    #[case::fragment_sv("Jag älskar alla färgerna på bilden.")]
    // "will" in the verb's place: a sentiment about one event, not a habit.
    #[case::sentiment_remember("I'll always remember our camping trip last year.")]
    #[case::sentiment_forget("I'll never forget the day my youngest took her first steps.")]
    #[case::sentiment_da("Jeg vil altid huske den tur.")]
    // Bracketed times and captions are not the user's words.
    #[case::caption_only("[shared a photo: I love pottery]")]
    // A wish is not a fact about the user (LoCoMo conv-43).
    #[case::wish("I've always wanted to try the seafood there.")]
    #[case::wish_never("I never wanted to leave.")]
    #[case::wish_sv("Jag har alltid velat se Island.")]
    #[case::wish_da("Jeg har altid drømt om at sejle.")]
    // A present wish or hope is a feeling, not a lasting fact (LoCoMo conv-41: "I never want
    // to go through this again").
    #[case::wish_present("I never want to go through this again.")]
    #[case::wish_present_sv("Jag vill aldrig uppleva det igen.")]
    #[case::wish_present_da("Jeg håber altid på sol.")]
    // A liking in a relative clause: its "object" is the main clause's verb (conv-43).
    #[case::relative_clause("Doing the things I love makes writing even more fun.")]
    #[case::relative_clause_sv("Det jag älskar är att resa.")]
    // The object only points at something in the conversation (issue 5, LoCoMo conv-43).
    #[case::points_back_world("I love escaping to that world.")]
    #[case::points_back_them("I love watching them play in the garden.")]
    #[case::points_back_it("I really love having it around.")]
    #[case::points_back_sv("Jag älskar dessa färger.")]
    #[case::points_back_da("Jeg elsker disse farver.")]
    // A gerund's phrase that runs on past eight words is cut, so no object.
    #[case::object_runs_on(
        "I love sitting by the window of the old library downtown reading long novels."
    )]
    fn no_fact_from(#[case] text: &str) {
        assert!(
            extract(text).is_empty(),
            "`{text}` is a hedge, a question, a plan or about someone else: no fact about the user, got {:?}",
            claims(text)
        );
    }

    #[rstest::rstest]
    #[case::move_en("I moved to Tallinn last spring.", "location", "Tallinn")]
    #[case::move_we("We moved to Tartu in August.", "location", "Tartu")]
    #[case::adverb_before_verb("I now work at Blorptech.", "employer", "Blorptech")]
    #[case::currently("We currently live in Tartu.", "location", "Tartu")]
    #[case::live_sv("Jag bor i Göteborg sedan i fjol.", "location", "Göteborg")]
    #[case::move_da("Vi er flyttet til Aarhus.", "location", "Aarhus")]
    #[case::name_en("My name is Alice Tamm.", "name", "Alice Tamm")]
    #[case::name_sv("Jag heter Linnea.", "name", "Linnea")]
    #[case::name_da("Jeg hedder Mads.", "name", "Mads")]
    #[case::employer_da("Jeg arbejder hos Novo Nordisk.", "employer", "Novo Nordisk")]
    #[case::language("I speak Estonian at home.", "language", "Estonian")]
    #[case::style("I prefer short answers.", "communication_style", "short")]
    #[case::style_sv("Jag föredrar korta svar.", "communication_style", "korta")]
    #[case::pet_sv("Min hund heter Sixten.", "pet", "hund Sixten")]
    #[case::family("My daughter Maja starts school.", "family", "daughter Maja")]
    #[case::allergy("I'm allergic to peanuts, properly allergic.", "allergy", "peanuts")]
    #[case::allergy_second("I'm allergic to peanuts and shellfish.", "allergy", "shellfish")]
    #[case::allergy_list_sv(
        "Jag är allergisk mot nötter, selleri och skaldjur.",
        "allergy",
        "selleri"
    )]
    #[case::likes_da(
        "Jeg elsker koriander – smid gerne en ekstra håndfuld i.",
        "preference:koriander",
        "likes"
    )]
    #[case::dislikes_da(
        "Ret lige det der: jeg kan ikke længere lide koriander, det smager af sæbe.",
        "preference:koriander",
        "dislikes"
    )]
    #[case::dislikes_sv("Jag gillar inte kaffe.", "preference:kaffe", "dislikes")]
    #[case::not_a_fan("I'm not a fan of jazz.", "preference:jazz", "dislikes")]
    #[case::new_job("I got a new job at Ericsson!", "employer", "Ericsson")]
    #[case::new_job_da("Jeg har fået nyt job hos Mærsk.", "employer", "Mærsk")]
    #[case::correction_place("No wait, I live in Malmö, not Lund.", "location", "Malmö")]
    #[case::gerund_object("I love creating art!", "preference:creating art", "likes")]
    #[case::all_kinds(
        "I love all dances, but contemporary is my top pick.",
        "preference:all dances",
        "likes"
    )]
    #[case::kin_possessive(
        "That trip was for my daughter Sara's birthday.",
        "family",
        "daughter Sara"
    )]
    #[case::before_caption(
        "I love camping trips with my fam [shared a photo: a sunset over a lake].",
        "preference:camping trips",
        "likes"
    )]
    #[case::fan_of(
        "I'm a big fan of pottery - the creativity is awesome.",
        "preference:pottery",
        "likes"
    )]
    // A gerund cut at its preposition is read on to the clause's end (LoCoMo conv-42/43).
    #[case::gerund_preposition(
        "I love experimenting in the kitchen!",
        "preference:experimenting in the kitchen",
        "likes"
    )]
    // A gerund with its own object, then a preposition: read on too (conv-43).
    #[case::gerund_object_preposition(
        "I love playing different songs on the piano, but jazz most.",
        "preference:playing different songs on the piano",
        "likes"
    )]
    // A demonstrative before more than one word names a kind of thing.
    #[case::demonstrative_kind(
        "I love getting lost in those fantasy worlds.",
        "preference:getting lost in those fantasy worlds",
        "likes"
    )]
    #[case::kind_sv("Jag älskar gamla filmer.", "preference:gamla filmer", "likes")]
    #[case::gerund_particle(
        "I love curling up with a good book, it's so cozy.",
        "preference:curling up with a good book",
        "likes"
    )]
    #[case::gerund_lost(
        "I love getting lost in fantasy stories and new worlds.",
        "preference:getting lost in fantasy stories",
        "likes"
    )]
    // A value at its four-word limit with more to come is read on (conv-43).
    #[case::four_word_limit(
        "I love sinking into different magical worlds.",
        "preference:sinking into different magical worlds",
        "likes"
    )]
    #[case::gerund_a_lot(
        "I enjoy going on road trips a lot.",
        "preference:going on road trips",
        "likes"
    )]
    #[case::spending_time(
        "I love spending time with the friends I have.",
        "preference:spending time with the friends i have",
        "likes"
    )]
    // One word before a longer conjunct may share its noun: the coordination is kept whole
    // (LoCoMo conv-41: "likes action" from "action and sci-fi movies").
    #[case::coordinated_modifier(
        "I like action and sci-fi movies.",
        "preference:action and sci-fi movies",
        "likes"
    )]
    #[case::coordinated_modifier_sv(
        "Jag gillar rock och klassisk musik.",
        "preference:rock och klassisk musik",
        "likes"
    )]
    #[case::coordinated_single_words("I love pizza and pasta.", "preference:pizza", "likes")]
    // A gerund before its noun is whole; what follows is no part of it.
    #[case::gerund_noun(
        "I love camping trips with my fam.",
        "preference:camping trips",
        "likes"
    )]
    fn fact_from(#[case] text: &str, #[case] attribute: &str, #[case] value: &str) {
        let found = claims(text);
        assert!(
            found.contains(&pair(attribute, value)),
            "`{text}` states {attribute} = {value} outright; found {found:?}"
        );
    }

    #[rstest::rstest]
    #[case::remark("I'm allergic to peanuts, properly allergic.", &["peanuts"])]
    #[case::three("I'm allergic to peanuts, shellfish and latex.", &["peanuts", "shellfish", "latex"])]
    #[case::then_remark(
        "I'm allergic to cats and dogs, which is sad.",
        &["cats", "dogs"]
    )]
    #[case::da("Jeg er allergisk over for nødder og æg.", &["nødder", "æg"])]
    fn every_allergen_of_a_list_and_no_remark(#[case] text: &str, #[case] want: &[&str]) {
        let got: Vec<String> = claims(text)
            .into_iter()
            .filter(|(a, _)| a == "allergy")
            .map(|(_, v)| v)
            .collect();
        assert_eq!(got, want, "`{text}` names exactly these allergens");
    }

    #[test]
    fn role_and_employer_come_together() {
        let found =
            claims("Long day. I've been a warehouse planner at Nordhav Logistics for three years.");
        assert!(
            found.contains(&pair("role", "warehouse planner")),
            "the role is stated: {found:?}"
        );
        assert!(
            found.contains(&pair("employer", "Nordhav Logistics")),
            "the employer is stated: {found:?}"
        );
        let found = claims(
            "Big news: I handed in my notice at Nordhav in March and today was my first day as production coordinator at Bryggverket, the brewery in Gävle.",
        );
        assert!(
            found.contains(&pair("employer", "Bryggverket")),
            "the new employer is stated: {found:?}"
        );
        let ended = extract(
            "Big news: I handed in my notice at Nordhav in March and today was my first day as production coordinator at Bryggverket.",
        );
        assert!(
            ended
                .iter()
                .filter(|c| c.value.contains("Nordhav"))
                .all(|c| c.ends),
            "handing in notice ends the old job, it never states it: {ended:?}"
        );
    }

    #[rstest::rstest]
    #[case::diet_en("I'm vegetarian now.", "diet", "vegetarian")]
    #[case::diet_da("Jeg er blevet veganer.", "diet", "veganer")]
    fn diet_from(#[case] text: &str, #[case] attribute: &str, #[case] value: &str) {
        assert!(
            claims(text).contains(&pair(attribute, value)),
            "`{text}` states the diet outright"
        );
    }

    #[rstest::rstest]
    #[case::diet("I'm no longer vegetarian.", "diet", "vegetarian")]
    #[case::diet_sv("Jag är inte längre vegan.", "diet", "vegan")]
    #[case::used_to(
        "I used to love coriander, but now it tastes like soap.",
        "preference:coriander",
        "likes"
    )]
    #[case::used_to_da("Jeg plejede at elske koriander.", "preference:koriander", "likes")]
    #[case::retract_en(
        "I'm not allergic to peanuts anymore, my doctor says it's gone.",
        "allergy",
        "peanuts"
    )]
    #[case::retract_no_longer("I no longer use Notion.", "tool", "Notion")]
    #[case::retract_plain("I don't live in Oslo.", "location", "Oslo")]
    #[case::retract_sv("Jag är inte allergisk mot nötter längre.", "allergy", "nötter")]
    #[case::retract_sv_slutat("Men jag har slutat jobba på Volvo.", "employer", "Volvo")]
    #[case::retract_da("Jeg er ikke længere allergisk over for nødder.", "allergy", "nødder")]
    #[case::retract_da_holdt_op("Jeg er holdt op med at bruge Slack.", "tool", "Slack")]
    #[case::stopped_using("I stopped using Notion last year.", "tool", "Notion")]
    #[case::have_stopped_using("I've stopped using Notion.", "tool", "Notion")]
    #[case::stopped_using_expertise("I stopped using Figma.", "expertise", "Figma")]
    #[case::quit_tool("I quit Slack in March.", "tool", "Slack")]
    #[case::quit_using("I quit using Trello.", "tool", "Trello")]
    #[case::no_longer_use("I no longer use Notion.", "expertise", "Notion")]
    #[case::not_anymore("I don't use Notion anymore.", "tool", "Notion")]
    #[case::sv_slutat_anvanda("Jag har slutat använda Notion.", "tool", "Notion")]
    #[case::da_holdt_op("Jeg er holdt op med at bruge Notion.", "tool", "Notion")]
    fn ends(#[case] text: &str, #[case] attribute: &str, #[case] value: &str) {
        let c = extract(text);
        assert!(
            c.iter()
                .any(|c| c.ends && c.attribute.key() == attribute && c.value == value),
            "`{text}` says {attribute} = {value} no longer holds: {c:?}"
        );
        assert!(!c.iter().any(|c| !c.ends), "and claims nothing new: {c:?}");
    }

    #[rstest::rstest]
    #[case::hedged("Maybe I'm not allergic to peanuts anymore.")]
    #[case::question("Am I not allergic to peanuts anymore?")]
    #[case::sister("My sister is not allergic to peanuts anymore.")]
    #[case::reported("Oskar says I'm not allergic to peanuts anymore.")]
    #[case::kin("My daughter Maja is not allergic anymore.")]
    #[case::denied_ending("I have not left Nordhav.")]
    #[case::not_sure("I'm not sure I still use Notion.")]
    #[case::sv_other("Min bror bor inte i Lund längre.")]
    #[case::da_other("Oskar er ikke længere allergisk over for nødder.")]
    #[case::stopped_hedged("Maybe I stopped using Notion.")]
    #[case::stopped_question("Did I stop using Notion?")]
    #[case::stopped_other("Oskar stopped using Slack.")]
    #[case::quit_other("My sister quit Slack.")]
    #[case::stopped_reported("Oskar says I stopped using Slack.")]
    #[case::stopped_by("I stopped by the Notion booth.")]
    #[case::quit_habit("I quit smoking.")]
    #[case::sv_other_slutat("Min bror har slutat använda Slack.")]
    #[case::da_other_holdt_op("Min søster er holdt op med at bruge Slack.")]
    fn retracts_nothing(#[case] text: &str) {
        let c = extract(text);
        assert!(
            !c.iter().any(|c| c.ends),
            "`{text}` is no first-person retraction by the user: {c:?}"
        );
    }

    #[test]
    fn leaving_a_job_ends_it() {
        let c = extract("I left Nordhav Logistics last week.");
        assert!(
            c.iter().any(|c| c.ends && c.value == "Nordhav Logistics"),
            "leaving a job ends the employer fact: {c:?}"
        );
    }

    #[test]
    fn tools_are_a_list() {
        let found = claims("I use Notion, Slack and Linear every day.");
        for t in ["Notion", "Slack", "Linear"] {
            assert!(
                found.contains(&pair("tool", t)),
                "each listed tool is its own fact: {found:?}"
            );
        }
    }

    #[test]
    fn correction_is_marked_and_names_the_old_value() {
        let c = extract("Actually my name is Alex, not Alice.");
        assert_eq!(c.len(), 1, "one claim: the name; got {c:?}");
        assert_eq!(c[0].value, "Alex", "the corrected value wins");
        assert!(
            c[0].correction,
            "`actually` marks a correction, which applies at once"
        );
        assert_eq!(
            c[0].replaces.as_deref(),
            Some("Alice"),
            "the correction names the old value"
        );
    }

    /// Swedish and Danish put a sentence adverb after the verb ("Jag heter *faktiskt* Anneli",
    /// verb second), and English after "is" ("my name is *actually* Alex"): the value is the
    /// name after it, and "faktiskt"/"faktisk"/"actually" still marks the correction, which
    /// applies at once (issue 5: "Actually my name is Alex" in English, Swedish and Danish).
    /// Before this rule the adverb stood where the value is read, so none of these gave a
    /// claim and the old name stayed current.
    #[rstest::rstest]
    #[case::sv(
        "Jag heter faktiskt Anneli, inte Anna.",
        "name",
        "Anneli",
        true,
        Some("Anna")
    )]
    #[case::da(
        "Jeg hedder faktisk Mette-Marie, ikke Mette.",
        "name",
        "Mette-Marie",
        true,
        Some("Mette")
    )]
    #[case::en_after_is(
        "My name is actually Alex, not Alice.",
        "name",
        "Alex",
        true,
        Some("Alice")
    )]
    #[case::sv_possessive("Mitt namn är egentligen Anneli.", "name", "Anneli", true, None)]
    #[case::da_location("Jeg bor faktisk i Odense.", "location", "Odense", true, None)]
    #[case::en_after_subject("I actually live in Oslo.", "location", "Oslo", true, None)]
    // A tense adverb in the same place says only that it still holds: no correction.
    #[case::sv_still("Vi bor fortfarande i Lund.", "location", "Lund", false, None)]
    #[case::da_now("Jeg bor nu i Aarhus.", "location", "Aarhus", false, None)]
    fn a_sentence_adverb_after_the_verb_leaves_the_value(
        #[case] text: &str,
        #[case] attribute: &str,
        #[case] value: &str,
        #[case] correction: bool,
        #[case] replaces: Option<&str>,
    ) {
        let c = extract(text);
        assert_eq!(
            c.iter()
                .map(|c| (
                    c.attribute.key(),
                    c.value.as_str(),
                    c.correction,
                    c.replaces.as_deref()
                ))
                .collect::<Vec<_>>(),
            [(attribute.to_string(), value, correction, replaces)],
            "`{text}`: the adverb is no value; the claim is the words after it"
        );
    }

    /// The adverb is left out only in a first-person statement: another person's name or
    /// place is still nobody's attribute of the user's.
    #[rstest::rstest]
    #[case::sv_other("Oskar heter faktiskt Olle.")]
    #[case::da_other("Mikkel bor faktisk i Odense.")]
    #[case::en_other("Her name is actually Alice.")]
    fn a_sentence_adverb_in_someone_elses_statement_gives_nothing(#[case] text: &str) {
        assert_eq!(
            claims(text),
            Vec::<(String, String)>::new(),
            "`{text}` is about somebody else, not the user"
        );
    }

    #[rstest::rstest]
    #[case::plain("I live in Tartu now.", "live in Tartu", false, None)]
    #[case::opener("No, we moved to Tartu in May.", "moved to Tartu", false, None)]
    #[case::sv("Jag jobbar som lärare.", "jobbar som lärare", false, None)]
    #[case::self_noun("My name is Alex.", "name is Alex", false, None)]
    #[case::fronted(
        "Most evenings I sketch furniture in Figma.",
        "Most evenings I sketch furniture in Figma",
        false,
        None
    )]
    #[case::mid_clause(
        "Most evenings I sketch furniture in Figma.",
        "sketch furniture in Figma",
        false,
        None
    )]
    #[case::other_then_me(
        "Oskar hates football because I told him so.",
        "Oskar hates football",
        false,
        Some("not about the user (another person is the subject)")
    )]
    #[case::you(
        "You sound like a night owl.",
        "sound like a night owl",
        false,
        Some("not about the user (another person is the subject)")
    )]
    #[case::kin("My daughter Maja starts school.", "daughter Maja", true, None)]
    #[case::other(
        "Oskar hates football.",
        "hates football",
        false,
        Some("not about the user (another person is the subject)")
    )]
    #[case::kin_trait(
        "My sister lives in Bergen.",
        "lives in Bergen",
        false,
        Some("not about the user (another person is the subject)")
    )]
    #[case::kin_not_allowed(
        "My daughter Maja starts school.",
        "daughter Maja",
        false,
        Some("not about the user (another person is the subject)")
    )]
    #[case::reported(
        "Oskar says I love football.",
        "I love football",
        false,
        Some("reported speech")
    )]
    #[case::quoted(
        "She wrote: \"I live in Oslo now.\"",
        "I live in Oslo",
        false,
        Some("quoted words")
    )]
    #[case::hedge(
        "I might move to Berlin.",
        "move to Berlin",
        false,
        Some("a hedge or a question")
    )]
    fn attribution_of(
        #[case] text: &str,
        #[case] quote: &str,
        #[case] kin: bool,
        #[case] expected: Option<&str>,
    ) {
        let start = text.find(quote).unwrap();
        assert_eq!(
            not_the_users_own(text, start..start + quote.len(), kin),
            expected,
            "`{quote}` in `{text}`"
        );
    }

    #[test]
    fn a_name_said_in_part_is_the_same_name() {
        let name = Attribute::Name;
        // Worked out by hand: the new words, in order, among the held ones and fewer.
        for (held, new, part) in [
            ("Bertil Andersson", "Bertil", true),
            ("Bertil Andersson", "bertil", true),
            ("Bertil Andersson", "Andersson", true),
            ("Anna Maria Svensson", "Anna Svensson", true),
            ("Bertil Andersson", "Bertil Andersson", false),
            ("Bertil Andersson", "Berit", false),
            ("Bertil Andersson", "Bert", false),
            ("Bertil Andersson", "Andersson Bertil", false),
            ("Bertil", "Bertil Andersson", false),
            ("Mette-Marie", "Mette", false),
            ("Alice Tamm", "Alex", false),
        ] {
            assert_eq!(name.says_in_part(held, new), part, "{new:?} of {held:?}");
        }
        assert!(
            !Attribute::Location.says_in_part("Lund Sweden", "Lund"),
            "only a name is said in part"
        );
    }

    #[test]
    fn quoted_statement_is_marked() {
        let c = extract("She wrote: \"I live in Oslo now.\"");
        assert!(
            c.iter().all(|c| c.quoted),
            "words inside quotes are not the user's own statement: {c:?}"
        );
    }
}
