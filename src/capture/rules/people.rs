//! Who: the named people in an episode other than the user and the assistant, in base form
//! (shared/data/capture/README.md, rule 9): no titles or kinship words ("Grandad Walt" →
//! "Walt", "tandlæge Holm" → "Holm"), no possessive endings ("Oskars" → "Oskar"), full names
//! kept ("Aurelia Finch"), and no companies, places or pets.
//!
//! A capitalised word is a person when it is a common given name (names.txt) or its context
//! says so: a title before it, a verb of saying after it, "with ___", "___ and I". A
//! determiner or a place preposition before it ("the Vireo pilot", "i Luleå", "at Arlanda")
//! makes it a thing or a place. In a shouted sentence capitals carry no information, so only
//! known given names count.

use std::collections::HashSet;
use std::ops::Range;
use std::sync::OnceLock;

use super::lang::Lang;
use super::token::{Kind, Token};

fn given_names() -> &'static HashSet<&'static str> {
    static NAMES: OnceLock<HashSet<&'static str>> = OnceLock::new();
    NAMES.get_or_init(|| {
        include_str!("names.txt")
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .flat_map(str::split_whitespace)
            .collect()
    })
}

/// Whether a lower-case word is a common given name; a hyphenated one ("maj-britt") when
/// either part is.
pub(crate) fn is_given_name(low: &str) -> bool {
    given_names().contains(low)
        || (low.contains('-') && low.split('-').any(|p| given_names().contains(p)))
}

/// Titles and kinship words: the name after one is a person, and the word itself is dropped.
#[rustfmt::skip]
const TITLES: &[&str] = &[
    "mr", "mrs", "ms", "miss", "dr", "doctor", "prof", "professor", "sir", "dame", "aunt", "auntie",
    "uncle", "grandma", "grandpa", "granny", "grandad", "granddad", "grandmother", "grandfather",
    "nana", "cousin", "brother", "sister", "colleague", "boss", "friend", "neighbour", "neighbor",
    "coach", "nurse", "dentist", "farmor", "farfar", "mormor", "morfar", "moster", "faster",
    "morbror", "farbror", "kusin", "kollegan", "kollega", "chefen", "vännen", "kompisen", "grannen",
    "tandläkare", "tandläkaren", "doktor", "läkaren", "bror", "syster", "lillebror", "storebror",
    "lillasyster", "storasyster", "tante", "onkel", "fætter", "kusine", "kollegaen", "chefen",
    "vennen", "naboen", "tandlæge", "tandlægen", "lægen", "søster", "lillebror", "storebror",
    "lillesøster", "storesøster", "oldemor", "oldefar", "svoger", "svigerinde", "svigerfar",
    "svigermor", "svåger", "svägerska", "svärfar", "svärmor", "stepdad", "stepmum", "stepmom",
    "niece", "nephew", "nevø", "brorson", "systerson", "systerdotter", "brordotter", "barnebarn",
    "barnbarn", "grandson", "granddaughter", "mate", "buddy", "partner", "wife", "husband", "fru",
    "kone", "mand", "kæreste", "sambo", "pojkvän", "flickvän", "boyfriend", "girlfriend", "son",
    "daughter", "søn", "datter", "dotter", "sonen", "dottern", "sønnen", "datteren", "mamma",
    "pappa", "teacher", "lärare", "läraren", "lærer", "læreren", "manager", "läkare", "læge",
    "tränare", "træner", "granne", "nabo", "landlady", "landlord", "hyresvärden", "udlejeren",
    "vän", "ven", "veninde", "väninna", "kompis", "chef",
];

/// Capitalised words that are not names: pronouns, days, months, languages, holidays.
#[rustfmt::skip]
const NOT_NAMES: &[&str] = &[
    "i", "i'm", "i'll", "i've", "i'd", "ok", "okay", "monday", "tuesday", "wednesday", "thursday",
    "friday", "saturday", "sunday", "january", "february", "march", "april", "may", "june", "july",
    "august", "september", "october", "november", "december", "english", "swedish", "danish",
    "norwegian", "german", "french", "spanish", "christmas", "easter", "jul", "påsk", "påske",
    "midsommar", "god", "mum", "mom", "dad", "mamma", "pappa", "mor", "far", "tv", "ai", "omg",
    "lol",
];

/// Adverbs of frequency, time and degree, en/sv/da, that open sentences in capitals
/// ("Always answer briefly", "Aldrig före nio", "Altid på dansk") and name nobody: a
/// capitalised common word is no person, wherever it stands and whatever follows it (a
/// fresh user's "Always" was taken as a participant of the episode).
#[rustfmt::skip]
const ADVERBS: &[&str] = &[
    "always", "never", "sometimes", "usually", "often", "rarely", "seldom", "ever", "also",
    "still", "again", "already", "just", "only", "then", "now", "today", "tomorrow",
    "yesterday", "tonight", "soon", "later", "first", "finally", "actually", "really", "please",
    "alltid", "aldrig", "ibland", "ofta", "oftast", "sällan", "vanligtvis", "också", "fortfarande",
    "igen", "redan", "bara", "även", "sedan", "idag", "imorgon", "igår", "snart", "senare",
    "först", "faktiskt", "verkligen", "snälla", "altid", "somme", "tit", "ofte", "sjældent",
    "normalt", "også", "stadig", "allerede", "kun", "endda", "så", "nu", "først", "faktisk",
    "virkelig", "venligst",
];

/// Given names that are also common words: a name only away from the start of a sentence.
const AMBIGUOUS: &[&str] = &[
    "will", "mark", "bill", "frank", "rich", "art", "guy", "pat", "sue", "don", "dawn", "rose",
    "iris", "ivy", "lily", "holly", "robin", "penny", "joy", "grace", "april", "august", "jack",
    "max", "ray", "lance", "wade", "glen", "dean", "miles", "val", "ted", "dale", "hazel", "olive",
    "violet", "ruby", "amber", "crystal", "jasmine", "willow", "daisy", "poppy", "rosa", "hans",
    "per", "bo", "dag", "liv", "sten", "stig", "siv", "line", "eve", "may", "kim", "august",
];

/// Function words that open sentences in capitals and happen to be names somewhere ("Min",
/// "Han", "Jan"): never a name at the start of a sentence.
#[rustfmt::skip]
const FUNCTION_WORDS: &[&str] = &[
    "min", "din", "sin", "han", "hon", "hun", "den", "det", "vi", "jag", "jeg", "man", "for", "til",
    "med", "nu", "mer", "men", "om", "en", "et", "ett", "så", "da", "då", "der", "her", "hvor",
    "var", "kan", "vil", "ska", "skal", "jan", "sol", "mina", "mine", "who", "what", "where",
    "when", "why", "how", "which", "everyone", "everybody", "someone", "somebody", "nobody",
    "maybe", "perhaps", "vem", "vad", "när", "varför", "hur", "vilken", "alla", "någon", "ingen",
    "hvem", "hvad", "hvornår", "hvorfor", "hvordan", "hvilken", "alle", "nogen", "kanske", "måske",
    "sedan", "redan", "plötsligt", "tyvärr", "äntligen", "derefter", "bagefter", "pludselig",
    "desværre", "endelig", "heldigvis",
];

/// Nouns after a possessive that belong to a person ("Marguerite's birthday", "Elsas kalas").
#[rustfmt::skip]
const PERSON_NOUNS: &[&str] = &[
    "birthday", "wedding", "funeral", "party", "husband", "wife", "partner", "boyfriend",
    "girlfriend", "mum", "mom", "dad", "son", "daughter", "kids", "children", "baby", "sister",
    "brother", "parents", "family", "kalas", "födelsedag", "bröllop", "begravning", "fest", "man",
    "fru", "sambo", "pojkvän", "flickvän", "mamma", "pappa", "dotter", "barn", "bebis", "syster",
    "bror", "föräldrar", "fødselsdag", "bryllup", "begravelse", "mand", "kone", "kæreste", "mor",
    "far", "søn", "datter", "børn", "søster", "forældre",
    "reception", "christening", "dop", "dåb", "konfirmation", "jubileum", "jubilæum",
    "disputation", "examen", "eksamen", "graduation", "retirement", "anniversary", "flight",
    "flyg", "fly", "housewarming",
];

/// Words before a name that make it a thing ("the Vireo pilot", "vår Volvo").
const DETERMINERS: &[&str] = &[
    "the", "a", "an", "our", "my", "your", "their", "this", "that", "den", "det", "en", "ett",
    "et", "vår", "vårt", "min", "mitt", "din", "ditt", "vores", "mit", "dit",
];

/// Prepositions of place: after one, even a given name is a place ("in Florence").
const IN_PLACE: &[&str] = &["in", "i", "from", "från", "fra", "near", "nära", "via"];

/// Prepositions that take places or companies, and people only when the word is a known name
/// ("at Arlanda", "på Kvarnbo", "hos Lundgaard", but "till Göran").
const AT_PLACE: &[&str] = &[
    "at", "to", "på", "till", "til", "hos", "vid", "ved", "for", "för",
];

/// Verbs after a capitalised word that make it someone ("Callum says", "Henrik ringde",
/// "Laszlo starts fitting ...").
#[rustfmt::skip]
const PERSON_VERBS: &[&str] = &[
    "says", "said", "told", "tells", "asked", "asks", "called", "calls", "texted", "emailed",
    "wrote", "writes", "thinks", "thought", "wants", "needs", "feels", "felt", "loves", "hates",
    "knows", "lands", "landed", "arrives", "arrived", "came", "comes", "left", "leaves", "starts",
    "started", "visits", "visited", "moves", "moved", "turns", "turned", "lives", "works",
    "promised", "promises", "met", "meets", "passed", "quit", "joined", "säger", "sa", "sade",
    "berättade", "ringde", "ringer", "skrev", "frågade", "tycker", "landar", "fyller", "fick",
    "kommer", "åker", "flyttar", "jobbar", "lovade", "lovar", "siger", "sagde", "fortalte",
    "ringede", "spurgte", "synes", "lander", "fylder", "fødte", "fik", "flytter", "arbejder",
    "lovede", "lover", "kører", "swears", "swore", "insists", "insisted", "claims", "claimed",
    "reckons", "reckoned", "mentioned", "mentions", "admits", "admitted", "confirmed", "confirms",
    "announced", "announces", "svär", "svor", "påstår", "hävdar", "nämnde", "bekräftade",
    "sværger", "svor", "påstår", "nævnte", "bekræftede", "insisterar", "insisterer",
];

/// Verbs of saying and calling: after a sentence-initial capital they make it a person even in
/// Swedish and Danish.
#[rustfmt::skip]
const SPEECH_VERBS: &[&str] = &[
    "says", "said", "told", "säger", "sa", "sade", "berättade", "ringde", "skrev", "lovade",
    "lovar", "siger", "sagde", "fortalte", "ringede", "lovede", "lover", "swears", "swore",
    "insists", "claims", "svär", "svor", "påstår", "hävdar", "nämnde", "sværger", "nævnte",
];

/// Verbs before a capitalised word that make it someone ("meeting Soraya", "träffade Ebba").
#[rustfmt::skip]
const PERSON_OBJECT_VERBS: &[&str] = &[
    "meeting", "meet", "met", "seeing", "saw", "calling", "call",
    "called", "texting", "texted", "emailing", "emailed", "ask", "asked", "tell", "told", "hug",
    "träffa", "träffar", "träffade", "ringa", "ringer", "ringde", "fråga",
    "frågade", "mød", "møder", "mødte", "ringe", "ringede", "spørge",
    "spurgte", "hente", "henter", "hämta", "hämtar",
];

/// Social words before "with": "dinner with Tobi" names a person; "the kickoff with
/// Brightline" or "going with Lindqvist" may name a company, so without one of these an unknown
/// word after "with" stays unknown.
#[rustfmt::skip]
const SOCIAL_WITH: &[&str] = &[
    "dinner", "lunch", "breakfast", "brunch", "coffee", "drinks", "drink", "tea", "date", "walk",
    "run", "chat", "talk", "party", "movie", "film", "concert", "trip", "holiday", "out", "up",
    "time", "game", "beers", "catch-up", "middag", "frukost", "fika", "fikade", "kaffe", "öl",
    "promenad", "pratade", "snack", "resa", "semester", "ute", "frokost", "morgenmad", "øl",
    "gåtur", "snakkede", "tur", "ferie", "spise", "äta", "hang", "hung", "played", "talked",
    "spoke", "chatted", "met", "went", "been", "was", "were", "var", "sammen", "tillsammans",
    "together",
];

/// The people named in tokens `range` (not counting tokens in `skip`, the time expressions),
/// and every proper noun there (lower case), in order of appearance.
pub(crate) struct Found {
    /// Named people, base form, each once.
    pub people: Vec<String>,
    /// All proper nouns, lower case: people, places, companies, projects.
    pub proper: Vec<String>,
}

/// Whether a sentence is shouted: most of its words are in capitals.
pub(crate) fn shouted(t: &[Token<'_>], range: &Range<usize>) -> bool {
    let words: Vec<&Token<'_>> = t[range.clone()]
        .iter()
        .filter(|w| {
            w.kind == Kind::Word && w.raw.chars().filter(|c| c.is_alphabetic()).count() >= 2
        })
        .collect();
    !words.is_empty() && words.iter().filter(|w| w.is_all_caps()).count() * 5 >= words.len() * 3
}

/// Finds people and proper nouns in one sentence.
pub(crate) fn scan(
    t: &[Token<'_>],
    range: Range<usize>,
    skip: &[Range<usize>],
    lang: Lang,
) -> Found {
    let mut found = Found {
        people: Vec::new(),
        proper: Vec::new(),
    };
    let masked = |i: usize| skip.iter().any(|r| r.contains(&i));
    if shouted(t, &range) {
        for i in range.clone().filter(|&i| !masked(i)) {
            if t[i].kind == Kind::Word && is_given_name(&t[i].low) && !t[i].is_any(AMBIGUOUS) {
                push(&mut found.people, title_case(&t[i].low));
            }
        }
        return found;
    }
    let first_word = range.clone().find(|&i| t[i].kind == Kind::Word);
    let mut runs: Vec<(Range<usize>, Role)> = Vec::new();
    let mut i = range.start;
    while i < range.end {
        if masked(i) || !(t[i].kind == Kind::Word && t[i].is_capitalised()) {
            i += 1;
            continue;
        }
        let start = i;
        while i < range.end && !masked(i) && t[i].kind == Kind::Word && t[i].is_capitalised() {
            i += 1;
        }
        // "Det är BESTÄMT": a long word in capitals inside a calm sentence is emphasis, not a
        // name (acronyms such as "IKEA" or "BBC" are short), unless it is a known given name.
        if (start..i).all(|k| emphasis(&t[k])) {
            continue;
        }
        let role = classify(t, start..i, first_word == Some(start), &range, lang);
        runs.push(role);
    }
    // "Tobi and Ama": a word joined to a person by "and" is a person too.
    for k in 0..runs.len() {
        for j in 0..runs.len() {
            let (a, b) = (&runs[k], &runs[j]);
            let joined = a.0.end + 1 == b.0.start && t[a.0.end].is_any(&["and", "och", "og", "&"]);
            if joined && a.1 == Role::Person && b.1 == Role::Unknown {
                runs[j].1 = Role::Person;
            }
            let (a, b) = (&runs[k], &runs[j]);
            if joined && b.1 == Role::Person && a.1 == Role::Unknown {
                runs[k].1 = Role::Person;
            }
        }
    }
    for (r, role) in runs {
        if r.is_empty() {
            continue;
        }
        // Swedish and Danish mark the owner with a bare -s; English uses 's, handled by stem.
        let owner = role == Role::Person
            && lang != Lang::En
            && t.get(r.end)
                .is_some_and(|n| n.is_word() && !n.is_capitalised());
        let words: Vec<String> = r
            .clone()
            .map(|i| base_form(t, i, i + 1 == r.end, owner))
            .collect();
        let name = words.join(" ");
        push(&mut found.proper, name.to_lowercase());
        if role == Role::Person {
            push(&mut found.people, name);
        }
    }
    found
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Person,
    Thing,
    Unknown,
}

/// Classifies a run of capitalised words, trimming titles and a sentence-initial common word;
/// returns the trimmed run and its role.
fn classify(
    t: &[Token<'_>],
    run: Range<usize>,
    initial: bool,
    sentence: &Range<usize>,
    lang: Lang,
) -> (Range<usize>, Role) {
    let first = if initial { Some(run.start) } else { None };
    let mut r = run;
    // "tandlæge Holm", "Dr. Holm", "my manager, Olufemi,".
    let mut titled = r.start > sentence.start && t[r.start - 1].is_any(TITLES)
        || (r.start >= sentence.start + 2
            && t[r.start - 1].is_any(&[".", ","])
            && t[r.start - 2].is_any(TITLES));
    while r.start < r.end {
        let w = &t[r.start];
        // A capital at the start of a sentence says nothing, unless the word is a known name
        // or a verb follows it as its subject ("Benedikt says ..."). Swedish and Danish put
        // the verb second after any opening adverb ("Kanske åker vi"), so there only a verb of
        // saying counts.
        let verbs = if lang == Lang::En {
            PERSON_VERBS
        } else {
            SPEECH_VERBS
        };
        let speaks =
            t.get(r.start + 1).is_some_and(|n| n.is_any(verbs)) && w.low.chars().count() >= 3;
        // "Barnaby's kids ...": the owner of a family or a party is a person.
        let owns = possessive(&w.low) && t.get(r.start + 1).is_some_and(|n| n.is_any(PERSON_NOUNS));
        // "Farouk and I have ...": a name joined to the speaker.
        let with_me = t
            .get(r.start + 1)
            .is_some_and(|n| n.is_any(&["and", "och", "og", "&"]))
            && t.get(r.start + 2)
                .is_some_and(|n| n.is_any(&["i", "jag", "jeg", "me", "mig"]))
            && w.low.chars().count() >= 3;
        // "Marguerite swears she'll ...": a verb in the third person and a pronoun taking the
        // subject up again.
        let taken_up = lang == Lang::En
            && t.get(r.start + 1).is_some_and(|n| {
                n.is_word() && n.low.ends_with('s') && !n.low.ends_with("ss") && !n.is_capitalised()
            })
            && t.get(r.start + 2)
                .is_some_and(|n| n.is_any(super::cues::PERSON_PRONOUNS))
            && w.low.chars().count() >= 3;
        let at_start = first == Some(r.start);
        if w.is_any(TITLES) {
            titled = true;
            r.start += 1;
        } else if w.is_any(NOT_NAMES)
            || w.is_any(ADVERBS)
            || (at_start && w.is_any(FUNCTION_WORDS))
            || (at_start
                && !is_given_name(&stem(&w.low))
                && !speaks
                && !owns
                && !with_me
                && !taken_up)
            || (at_start && w.is_any(AMBIGUOUS))
        {
            r.start += 1;
            titled = false;
        } else {
            break;
        }
    }
    while r.start < r.end && (t[r.end - 1].is_any(NOT_NAMES) || t[r.end - 1].is_any(ADVERBS)) {
        r.end -= 1;
    }
    if r.is_empty() {
        return (r, Role::Thing);
    }
    let prev = (r.start > sentence.start).then(|| &t[r.start - 1]);
    let next = t.get(r.end).filter(|_| r.end < sentence.end);
    let known = is_given_name(&stem(&t[r.start].low))
        && !(r.len() == 1 && t[r.start].is_any(AMBIGUOUS) && initial);
    let role = if titled {
        Role::Person
    } else if prev.is_some_and(|p| p.is_any(DETERMINERS) || p.is_any(IN_PLACE)) {
        Role::Thing
    } else if known {
        Role::Person
    } else if r.len() > 1 || prev.is_some_and(|p| p.is_any(AT_PLACE)) {
        Role::Thing
    } else if (prev.is_some_and(|p| p.is_any(&["with", "med"]))
        && (r.start.saturating_sub(4).max(sentence.start)..r.start - 1)
            .any(|i| t[i].is_any(SOCIAL_WITH)))
        || prev.is_some_and(|p| p.is_any(PERSON_OBJECT_VERBS))
        || next.is_some_and(|n| n.is_any(PERSON_VERBS))
        || (possessive(&t[r.end - 1].low) && next.is_some_and(|n| n.is_any(PERSON_NOUNS)))
        || (r.len() == 1 && referred_to(t, r.end, sentence))
        // "Cordelia from the choir", "Jonna fra mit arbejde": someone known through a group.
        || (next.is_some_and(|n| n.is_any(&["from", "från", "fra"]))
            && t.get(r.end + 1)
                .filter(|_| r.end + 1 < sentence.end)
                .is_some_and(|n| n.is_any(DETERMINERS) || n.is_any(&["his", "her", "hans", "hennes", "hendes"])))
        || (next.is_some_and(|n| n.is_any(&["and", "och", "og"]))
            && t.get(r.end + 1)
                .is_some_and(|n| n.is_any(&["i", "jag", "jeg", "me"])))
    {
        Role::Person
    } else {
        Role::Unknown
    };
    (r, role)
}

/// A word in capitals that stresses rather than names: five letters or more and not a given
/// name ("BESTÄMT", "NEVER"), or a short common word ("NOT", "INTE", "IKKE").
fn emphasis(w: &Token<'_>) -> bool {
    const SHORT: &[&str] = &[
        "not", "no", "yes", "all", "now", "never", "ever", "very", "so", "too", "inte", "ikke",
        "nej", "ja", "aldrig", "nu", "nog", "helt", "alt", "alla", "alle", "must", "has", "was",
        "is", "are", "the", "and", "och", "og", "is", "att", "at", "det", "den", "för", "for",
        "till", "til", "ska", "skal", "har", "var", "er", "är", "how", "what", "why", "who", "vad",
        "hvad", "you", "du", "we", "vi", "she", "he", "hon", "hun", "han", "our", "my", "min",
        "mit", "mig", "me", "us", "oss", "os", "hela", "hele", "jag", "jeg", "sure",
    ];
    let letters = w.raw.chars().filter(|c| c.is_alphabetic()).count();
    w.is_all_caps()
        && !is_given_name(&w.low)
        && (letters >= 5 || w.is_any(SHORT) || w.is_any(NOT_NAMES))
}

fn possessive(low: &str) -> bool {
    low.ends_with("'s") || low.ends_with('\'') || low.ends_with('s')
}

/// Whether a person pronoun follows within four words ("Rafferty finally passed his test").
fn referred_to(t: &[Token<'_>], from: usize, sentence: &Range<usize>) -> bool {
    (from..(from + 4).min(sentence.end)).any(|i| t[i].is_any(super::cues::PERSON_PRONOUNS))
}

/// A word without a possessive ending: "Nadia's" → "nadia", "Oskars" → "oskar" when that is a
/// known name.
fn stem(low: &str) -> String {
    if let Some(s) = low.strip_suffix("'s").or_else(|| low.strip_suffix('\'')) {
        return s.to_string();
    }
    if !is_given_name(low)
        && let Some(s) = low.strip_suffix('s')
        && is_given_name(s)
    {
        return s.to_string();
    }
    low.to_string()
}

/// The word as written, without a possessive ending on the last word of a name.
fn base_form(t: &[Token<'_>], i: usize, last: bool, owner: bool) -> String {
    let raw = t[i].raw.replace('’', "'");
    if !last {
        return raw;
    }
    let low = t[i].low.as_str();
    let mut stemmed = stem(low);
    // A person's name right before a noun, ending in the Nordic genitive -s ("Karolines
    // reception"), loses it even when the name is not on the list.
    if owner
        && stemmed == low
        && !is_given_name(low)
        && low.len() > 3
        && let Some(s) = low.strip_suffix('s')
    {
        stemmed = s.to_string();
    }
    if stemmed.len() < low.len() {
        raw.get(..stemmed.len()).map_or(raw.clone(), str::to_string)
    } else {
        raw
    }
}

fn title_case(low: &str) -> String {
    let mut chars = low.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

fn push(list: &mut Vec<String>, item: String) {
    if !list.contains(&item) {
        list.push(item);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::rules::token::tokenize;
    use rstest::rstest;

    fn people(text: &str) -> Vec<String> {
        let t = tokenize(text);
        scan(&t, 0..t.len(), &[], crate::capture::rules::lang::guess(&t)).people
    }

    #[rstest]
    #[case("Had lunch with Grandad Walt at the Blue Anchor.", &["Walt"])]
    #[case("Tiden hos tandlæge Nørgaard er flyttet.", &["Nørgaard"])]
    #[case("Vi firar Elsas födelsedag på Café Sol.", &["Elsa"])]
    #[case("Drinks with Aurelia Finch after work.", &["Aurelia Finch"])]
    #[case("We signed with Hedlund Bygg for the kitchen.", &[])]
    #[case("Flyget till Göteborg är inställt.", &[])]
    #[case("Benedikt says the cabin is free in July.", &["Benedikt"])]
    #[case("Dinner with Kofi and Yewande tonight.", &["Kofi", "Yewande"])]
    #[case("Our dog Biscuit ate the Brennan report.", &[])]
    #[case("Will you remind me?", &[])]
    #[case("MET HANNA AT THE GYM!!!", &["Hanna"])]
    #[case("Ottilie insists she'll bring the ladder back.", &["Ottilie"])]
    #[case("Bartholomew and I have booked the ferry.", &["Bartholomew"])]
    #[case("Jeg har VIRKELIG glemt nøglerne.", &[])]
    #[case("Ran into Cosima from my old choir.", &["Cosima"])]
    #[case("Tom flew in from Leeds.", &["Tom"])]
    fn participants_follow_the_readme_rules(#[case] text: &str, #[case] expected: &[&str]) {
        assert_eq!(
            people(text),
            expected,
            "titles and possessives are dropped, full names kept, companies, places and pets left out: {text}"
        );
    }

    /// A fresh user's "Always" at the start of a sentence was a participant of the episode.
    /// A capitalised adverb is a common word, not a name, wherever it stands and whatever
    /// verb follows it ("Always says" reads like "Benedikt says"); a name beside it still
    /// counts.
    #[rstest]
    #[case::always("Always answer briefly.", &[])]
    #[case::always_says("Always says thanks, that one.", &[])]
    #[case::never("Never calls me back, sadly.", &[])]
    #[case::sometimes("Sometimes visits her on Sundays.", &[])]
    #[case::usually("Usually meets Sara for lunch.", &["Sara"])]
    #[case::sv_alltid("Alltid svarar hon kort.", &[])]
    #[case::sv_aldrig("Aldrig före nio, säger Erik.", &["Erik"])]
    #[case::da_altid("Altid på dansk, siger Mette.", &["Mette"])]
    #[case::emphasis_inside("I Always book the window seat.", &[])]
    fn a_capitalised_adverb_is_no_person(#[case] text: &str, #[case] expected: &[&str]) {
        assert_eq!(
            people(text),
            expected,
            "an adverb names nobody, capitalised or not: {text}"
        );
    }
}
