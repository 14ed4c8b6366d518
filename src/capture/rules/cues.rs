//! Cue lexicons for the act kinds (seed 004: correction, decision, commitment, retraction,
//! observation, routine) in English, Swedish and Danish, and the phrase matcher that reads
//! them. Phrases are lower-case tokens separated by spaces; `*` stands for up to four tokens
//! and a token ending in `*` matches by prefix ("bestäm*" = bestämt, bestämde, ...).

/// Whether the phrase occurs in `words`; returns the index of its first token.
pub(crate) fn find(words: &[&str], phrase: &str) -> Option<usize> {
    find_all(words, phrase).next()
}

/// Every index where the phrase starts.
pub(crate) fn find_all<'a>(words: &'a [&str], phrase: &str) -> impl Iterator<Item = usize> + 'a {
    let pattern: Vec<String> = phrase.split(' ').map(str::to_string).collect();
    (0..words.len()).filter(move |&i| {
        let p: Vec<&str> = pattern.iter().map(String::as_str).collect();
        matches_at(words, i, &p)
    })
}

/// Whether any of the phrases occurs in `words`.
pub(crate) fn any(words: &[&str], phrases: &[&str]) -> bool {
    phrases.iter().any(|p| find(words, p).is_some())
}

fn matches_at(words: &[&str], i: usize, pattern: &[&str]) -> bool {
    let Some((first, rest)) = pattern.split_first() else {
        return true;
    };
    if *first == "*" {
        return (0..=4).any(|skip| i + skip <= words.len() && matches_at(words, i + skip, rest));
    }
    let Some(word) = words.get(i) else {
        return false;
    };
    let hit = match first.strip_suffix('*') {
        Some(prefix) if !prefix.is_empty() => word.starts_with(prefix),
        _ => word == first,
    };
    hit && matches_at(words, i + 1, rest)
}

/// The user fixing a fact the assistant holds or said, or one the user gave earlier
/// (shared/data/capture/README.md, rule 2).
#[rustfmt::skip]
pub(crate) const CORRECTION: &[&str] = &[
    "that's not right", "that is not right", "that isn't right", "that's not true",
    "that's not correct", "not correct", "that's wrong", "that is wrong", "you're wrong",
    "you are wrong", "you've got * wrong", "you have * wrong", "you got * wrong",
    "you've got the wrong", "you have the wrong", "got it wrong", "had it wrong", "have it wrong",
    "got that wrong", "had that wrong", "i was wrong", "is wrong", "are wrong", "was wrong",
    "wrong date", "wrong day", "wrong time", "wrong name", "wrong number", "wrong year",
    "wrong address", "incorrect", "i told you", "i already told you", "as i said", "like i said",
    "scratch that", "scratch what", "correction :", "let me correct", "i meant", "not what i said",
    "you misunderstood", "mixed up", "you misheard", "det stämmer inte", "stämmer inte",
    "det är fel", "är fel", "du har fel", "du har * fel", "fel datum", "fel dag", "fel tid",
    "fel namn", "fel nummer", "jag hade fel", "jag sa ju", "jag har ju sagt", "som jag sa",
    "rättelse", "jag menade", "blandar ihop", "blandat ihop", "glöm det jag sa", "inte rätt",
    "det var fel", "det passer ikke", "passer ikke", "det er forkert", "er forkert", "forkert",
    "forkerte dato", "forkerte dag", "du tager fejl", "du tog fejl", "ikke rigtigt", "jeg tog fejl",
    "jeg sagde jo", "som jeg sagde", "rettelse", "jeg mente", "blandet sammen", "blander * sammen",
    "glem det jeg sagde", "det var forkert",
];

/// The assistant walking back its own claim (rule 3). Also any self-blame with a correction.
#[rustfmt::skip]
pub(crate) const RETRACTION: &[&str] = &[
    "correct myself", "i was wrong", "i was mistaken", "my mistake", "my bad", "i misspoke",
    "i made a mistake", "i made an error", "i stand corrected", "i got that wrong",
    "i got it wrong", "i had that wrong", "i had it wrong", "i gave you the wrong",
    "i told you the wrong", "correction :", "let me correct", "i mixed up", "i misread",
    "i was incorrect", "i said * but", "i told you * but", "jag hade fel", "hade jag fel",
    "jag tog fel", "jag sa fel", "jag skrev fel", "mitt misstag", "mitt fel", "rättelse",
    "rätta mig", "jag blandade ihop", "jag gav dig fel", "jag sa * men", "jeg tog fejl",
    "tog jeg fejl", "jeg sagde forkert", "jeg skrev forkert", "min fejl", "rettelse",
    "rette mig selv", "jeg blandede", "jeg gav dig forkert", "jeg tager fejl", "jeg sagde * men",
    "fejl fra min side", "my fault", "my error", "mistake on my part", "misstag från min sida",
    "walk that back", "walk back", "walking back", "walk it back", "take that back",
    "take back what", "taking that back", "i retract", "let me retract", "i need to retract",
    "jag tar tillbaka", "jag tar tillbaks", "jag backar", "jeg tager det tilbage",
    "jeg trækker * tilbage", "jeg må trække * tilbage",
];

/// Apologies: with a contrast ("X, not Y") an assistant's apology is a retraction.
#[rustfmt::skip]
pub(crate) const APOLOGY: &[&str] = &[
    "sorry", "apologies", "i apologize", "i apologise", "förlåt", "ursäkta", "beklagar", "undskyld",
    "beklager",
];

/// A settled choice by the speaker (rule 4); needs a first-person subject in the sentence.
#[rustfmt::skip]
pub(crate) const DECISION: &[&str] = &[
    "decided", "decide", "chose", "chosen", "choose", "picked", "settled on", "opted", "agreed to",
    "agreed that", "agreed on", "made up my mind", "made up our minds", "going with", "go with",
    "said yes", "said no", "postpon*", "reschedul*", "push * back", "accepted", "turned down",
    "declined", "bestäm*", "beslut*", "valt", "valde", "väljer", "kommit överens", "kom överens",
    "skjuta upp", "skjuter upp", "skjutit upp", "kör på", "tackat nej", "tackar nej", "tackat ja",
    "tackar ja", "sagt ja", "sagt nej", "sa ja", "sa nej", "besluttet", "beslutte*", "bestemt os",
    "bestemt mig", "bestemte os", "bestemte mig", "har bestemt", "vælger", "valgt", "valgte",
    "blevet enige", "blev enige", "aftalt", "udskyd*", "udsat", "takket nej", "takker nej",
    "takket ja", "takker ja", "sagt ja", "sagt nej", "sagde ja", "sagde nej",
    "going ahead with", "go ahead with", "settled it", "pushing * back", "pushed * back",
    "bringing * forward", "brought * forward", "bring * forward", "calling * off", "called * off",
    "call * off", "vi har landat i", "skjuter * upp", "flyttar fram", "tidigarelägg*",
    "rykker * frem", "rykket * frem", "aflyser", "aflyst",
];

/// A decision announced without a subject ("Decision made:", "Final answer from us:").
#[rustfmt::skip]
pub(crate) const DECISION_BARE: &[&str] = &[
    "decision made", "decision's made", "decision is made", "decision :", "the decision is",
    "made a decision", "final answer", "final decision", "it's decided", "it is decided",
    "beslut :", "beslutet är", "det är bestämt", "slutgiltigt", "beslutning :", "det er besluttet",
    "det er bestemt", "endelig beslutning", "it's settled", "that's settled", "it is settled",
    "that's final", "det är avgjort", "det er afgjort", "det er endeligt",
];

/// A promise or firm first-person plan (rule 5).
#[rustfmt::skip]
pub(crate) const COMMITMENT: &[&str] = &[
    "i'll", "i will", "we'll", "we will", "i'm going to", "i am going to", "we're going to",
    "we are going to", "i'm gonna", "we're gonna", "i promise", "i promised", "we promise",
    "we promised", "i plan to", "i'm planning to", "we plan to", "we're planning to", "i intend to",
    "i have to", "i need to", "i must", "i've got to", "let me", "i shall", "jag ska", "jag skall",
    "vi ska", "vi skall", "jag kommer att", "vi kommer att", "jag lovar", "jag lovade", "vi lovar",
    "vi lovade", "jag måste", "vi måste", "jag fixar", "jag tar hand om", "jag ordnar",
    "jag påminner", "jag hör av mig", "jag återkommer", "jag kollar", "jag ser till", "jeg skal",
    "vi skal", "jeg vil", "vi vil", "jeg lover", "jeg lovede", "vi lover", "vi lovede",
    "jeg er nødt til", "vi er nødt til", "jeg sørger for", "jeg ordner", "jeg tager mig af",
    "jeg minder dig", "jeg vender tilbage", "jeg tjekker", "jeg kigger på",
    // The perfect of a promise is still the promise: "I've promised to call", "jag har
    // lovat att", "jeg har lovet at".
    "i've promised", "i have promised", "we've promised", "we have promised", "jag har lovat",
    "vi har lovat", "jeg har lovet", "vi har lovet",
];

/// A request to be reminded ("Remind me to call the plumber", "Påminn mig om att köpa
/// present", "Mind mig om at betale husleje"): a to-do of the user's, so a commitment (rule 5)
/// like "I'll call the plumber", and an open item. Read by `act::reminder`, which needs what
/// is to be done after it ("to", "att", "om at", a time), so "It reminds me of home" and
/// "Don't remind me" ask for nothing.
#[rustfmt::skip]
pub(crate) const REMINDER: &[&str] = &[
    "remind me", "don't let me forget", "do not let me forget", "set a reminder",
    "add a reminder", "påminn mig", "påminna mig", "påminner du mig", "låt mig inte glömma",
    "sätt en påminnelse", "lägg in en påminnelse", "mind mig", "minde mig", "minder du mig",
    "påmind mig", "påminde mig", "lad mig ikke glemme", "sæt en påmindelse", "lav en påmindelse",
];

/// What may follow a [`REMINDER`] and say what is to be done or when ("remind me *to* …",
/// "påminn mig *om att* …", "mind mig *om* at …", "remind me *tomorrow* …").
#[rustfmt::skip]
pub(crate) const REMINDED_OF: &[&str] = &[
    "to", "about", "that", "on", "at", "in", "tomorrow", "tonight", "next", "this", "before",
    "om", "att", "på", "i", "imorgon", "innan", "at", "før", "inden", "til", ":",
];

/// Words after "I'll"/"jeg vil" that make it a stance, not a promise ("I'll believe it when I
/// see it", "jeg vil gerne").
pub(crate) const NOT_A_PROMISE: &[&str] = &[
    "believe", "think", "guess", "bet", "wonder", "admit", "assume", "suppose", "love", "like",
    "hate", "miss", "survive", "live", "probably", "maybe", "possibly", "try", "never", "gerne",
    "nok", "hellere", "ikke", "inte", "gärna", "nog", "not",
];

/// Hedges (rule 6): an intention with one of these is an observation.
#[rustfmt::skip]
pub(crate) const HEDGES: &[&str] = &[
    "might", "maybe", "perhaps", "possibly", "probably", "kicking around", "thinking about",
    "thinking of", "considering", "would like to", "i'd like to", "i'd love to", "hopefully",
    "hope to", "some day", "someday", "one day", "one of these days", "at some point", "if i",
    "if we", "we'll see", "try to", "i'll try", "not sure", "who knows", "toying with", "tempted",
    "kanske", "eventuellt", "möjligen", "troligen", "förmodligen", "funderar på", "fundera på",
    "funderat på", "skulle vilja", "vill gärna", "någon gång", "en dag", "det vore kul",
    "det kunde vara", "vi får se", "om jag", "om vi", "hoppas", "kunde tänka mig", "sugen på",
    "måske", "muligvis", "sandsynligvis", "formentlig", "overvejer", "kunne godt tænke",
    "kunne tænke mig", "vil gerne", "ville gerne", "på et tidspunkt", "det kunne være", "vi får se",
    "hvis jeg", "hvis vi", "håber", "lyst til",
];

/// Openers that shift to a new topic ("Also grabbed coffee ...", "Separately, ...").
#[rustfmt::skip]
pub(crate) const SEPARATORS: &[&str] = &[
    "also", "separately", "btw", "by the way", "oh and", "and also", "another thing",
    "in other news", "plus", "ps", "p.s", "förresten", "dessutom", "en annan sak", "apropå",
    "forresten", "desuden", "i øvrigt", "en anden ting", "og så", "och så", "anyway",
];

/// Words of small talk: a sentence made only of these is routine (rule 7).
#[rustfmt::skip]
pub(crate) const SOCIAL: &[&str] = &[
    "thanks", "thank", "you", "so", "much", "very", "ok", "okay", "okey", "k", "sure", "great",
    "perfect", "good", "sounds", "looks", "fine", "cool", "nice", "awesome", "lovely", "brilliant",
    "excellent", "got", "it", "noted", "understood", "alright", "right", "yes", "yeah", "yep",
    "yup", "problem", "worries", "hi", "hello", "hey", "morning", "evening", "afternoon", "night",
    "bye", "goodbye", "see", "cheers", "welcome", "you're", "that's", "that", "works", "will", "do",
    "haha", "lol", "wow", "oh", "ah", "thx", "ty", "np", "please", "a", "lot", "all", "set", "done",
    "tack", "så", "mycket", "hej", "hejsan", "tjena", "god", "morgon", "kväll", "natt", "okej",
    "bra", "perfekt", "toppen", "utmärkt", "jättebra", "kanon", "fint", "absolut", "ja", "jaha",
    "det", "blir", "låter", "är", "varsågod", "ses", "ha", "en", "trevlig", "dag", "hejdå",
    "härligt", "tak", "for", "mange", "godmorgen", "morgen", "aften", "nat", "super", "fedt",
    "dejligt", "godt", "lyder", "selv", "farvel", "skønt", "fantastisk", "er", "vi", "hav", "no",
    "nej",
    // Exclamations ("Nej men så fint!", "Åh hvor dejligt!", "Oh how lovely!").
    "men", "vad", "roligt", "kul", "skönt", "underbart", "åh", "oj", "ojdå", "aha", "how",
    "amazing", "fantastic", "wonderful", "hvor", "sjovt", "ih", "nå", "dejlig", "flot", "what",
    "gorgeous", "yay", "hooray", "aww", "aw", "sweet", "fab", "neat", "härlig", "mysigt",
    "hyggeligt",
];

/// Thanks and greetings: a short sentence with one is small talk even when it names a time
/// or says what the thanks are for ("Tak for i går!", "No problem, thanks for sorting it").
#[rustfmt::skip]
pub(crate) const SOCIAL_ANCHORS: &[&str] = &[
    "thanks", "thank", "thx", "ty", "cheers", "hi", "hello", "hey", "tack", "tackar", "hej",
    "hejsan", "tak", "godmorgen", "welcome", "varsågod",
];

/// Small-talk topics: the weather and how the day feels ("nice weather today", "vilket väder
/// i dag", "sikke et vejr i dag"). A sentence of these, [`SMALL_TALK_FILLER`] and
/// [`SOCIAL`] words only is small talk even with a time word in it.
#[rustfmt::skip]
pub(crate) const SMALL_TALK_TOPICS: &[&str] = &[
    "weather", "sunny", "sunshine", "sun", "rain", "rainy", "raining", "cold", "hot", "warm",
    "chilly", "windy", "snow", "snowing", "cloudy", "grey", "gray", "foggy", "humid",
    "väder", "vädret", "sol", "soligt", "solsken", "regn", "regnar", "regnigt", "kallt",
    "varmt", "blåsigt", "snö", "snöar", "molnigt", "grått", "dimmigt",
    "vejr", "vejret", "solskin", "regner", "regnvejr", "koldt", "blæsende", "sne", "sner",
    "overskyet", "gråvejr", "tåget",
];

/// Words that may surround a small-talk topic: day deixis, articles, intensifiers and
/// evaluations ("such a lovely day out today", "så fint väder i dag").
#[rustfmt::skip]
pub(crate) const SMALL_TALK_FILLER: &[&str] = &[
    "today", "today's", "tonight", "this", "out", "outside", "here", "such", "what", "a", "an",
    "the", "is", "it's", "its", "was", "really", "quite", "pretty", "again", "finally", "at",
    "last", "day", "morning", "weekend", "lovely", "beautiful", "nice", "terrible", "awful",
    "gorgeous", "bad", "weird", "crazy", "amazing", "too", "it", "isn't",
    "idag", "i", "dag", "ikväll", "kväll", "ute", "här", "verkligen", "igen", "äntligen",
    "vilket", "vilken", "dagen", "morse", "helgen", "fint", "härligt", "underbart", "hemskt",
    "konstigt", "ganska", "rätt", "så", "väldigt", "idag", "är", "var", "det",
    "sikke", "et", "ude", "her", "virkelig", "endelig", "dagen", "weekenden", "flot", "dejligt",
    "skønt", "frygteligt", "mærkeligt", "ret", "meget", "er", "det", "noget",
];

/// Small-talk phrases that count like [`SOCIAL_ANCHORS`].
#[rustfmt::skip]
pub(crate) const SOCIAL_PHRASES: &[&str] = &[
    "no problem", "no worries", "you're welcome", "inga problem", "ingen fara", "ingen orsak",
    "ingen årsag", "selv tak", "intet problem",
];

/// Verbs of a bare acknowledgement after a first-person subject ("I see", "I agree", "jag
/// förstår", "jeg ved"): such a sentence says nothing about the speaker.
#[rustfmt::skip]
pub(crate) const ACKNOWLEDGING: &[&str] = &[
    "see", "know", "agree", "understand", "guess", "think", "mean", "hope", "bet", "suppose",
    "get", "do", "am", "was", "not", "too", "also", "see", "same", "förstår", "ser", "vet",
    "håller", "med", "tror", "antar", "hoppas", "också", "forstår", "ved", "tror", "tænker",
    "enig", "håber", "også", "ikke", "inte", "kan", "can",
];

/// First-person subjects.
pub(crate) const FIRST_PERSON_SUBJECT: &[&str] = &[
    "i", "i'm", "i've", "i'll", "i'd", "we", "we're", "we've", "we'll", "we'd", "jag", "vi", "jeg",
];

/// First-person words of any case: a question with one is about the speaker's own life.
pub(crate) const FIRST_PERSON: &[&str] = &[
    "i", "i'm", "i've", "i'll", "i'd", "we", "we're", "we've", "we'll", "we'd", "me", "my", "mine",
    "us", "our", "ours", "jag", "vi", "mig", "min", "mitt", "mina", "oss", "vår", "vårt", "våra",
    "jeg", "mit", "mine", "os", "vores",
];

/// Whether `w` is a first-person word in `lang`: "i" is English "I" only in English, and the
/// preposition "in" in Swedish and Danish. `subject` limits it to subject forms.
pub(crate) fn first_person(w: &str, lang: super::lang::Lang, subject: bool) -> bool {
    if w == "i" {
        return lang == super::lang::Lang::En;
    }
    if subject {
        FIRST_PERSON_SUBJECT.contains(&w)
    } else {
        FIRST_PERSON.contains(&w)
    }
}

/// Second-person words: an assistant sentence with one is about the user, not a lookup answer.
pub(crate) const SECOND_PERSON: &[&str] = &[
    "you", "your", "yours", "you're", "you'll", "you've", "you'd", "du", "dig", "din", "ditt",
    "dina", "ni", "jer", "jeres", "dit", "dine",
];

/// Pronouns for one person: they point at a person named elsewhere in the message.
pub(crate) const PERSON_PRONOUNS: &[&str] = &[
    "he", "him", "his", "she", "her", "hers", "he's", "she's", "he'll", "she'll", "han", "honom",
    "hon", "henne", "hans", "hennes", "ham", "hun", "hende", "hendes",
];

/// Plural pronouns: they point at people only when two or more were named.
pub(crate) const PLURAL_PRONOUNS: &[&str] = &[
    "they", "them", "their", "they're", "they'll", "de", "dem", "deras", "deres",
];

/// Words that point back at something said before ("it", "det", "der"): a sentence with one
/// continues its happening.
pub(crate) const ANAPHORS: &[&str] = &[
    "it", "that", "this", "these", "those", "there", "then", "det", "den", "dessa", "där", "då",
    "dette", "disse", "der",
];

/// "No" that is an exclamation or a polite refusal, not a correction (rule 2).
pub(crate) const NOT_A_DENIAL: &[&str] = &[
    "way", "kidding", "problem", "problems", "worries", "thanks", "thank", "idea", "wonder",
    "doubt", "rush", "tack", "men", "då", "vad", "hvor", "tak", "da",
];

/// Verbs that describe a state, not an act: "I have a meeting tomorrow" is no plan.
#[rustfmt::skip]
pub(crate) const STATIVE: &[&str] = &[
    "am", "have", "has", "had", "was", "think", "know", "believe", "feel", "hope", "guess", "love",
    "like", "hate", "want", "wish", "mean", "remember", "forget", "see", "hear", "understand",
    "agree", "wonder", "doubt", "miss", "prefer", "bet", "live", "work", "usually", "always",
    "never", "är", "har", "hade", "var", "blir", "kan", "vill", "får", "tror", "tycker", "vet",
    "känner", "hoppas", "undrar", "heter", "bor", "ligger", "sitter", "mår", "gillar", "älskar",
    "hatar", "önskar", "behöver", "minns", "glömmer", "förstår", "menar", "tänker", "er", "havde",
    "bliver", "synes", "ved", "kender", "håber", "hedder", "sidder", "elsker", "hader", "ønsker",
    "husker", "glemmer", "forstår", "mener", "tænker", "feeling", "thinking", "hoping", "wondering",
    "considering", "looking", "trying", "being", "getting", "kicking", "dying",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_and_prefixes_match() {
        let words = ["you've", "got", "nadia's", "birthday", "down", "wrong"];
        assert_eq!(
            find(&words, "you've got * wrong"),
            Some(0),
            "`*` spans the object of the mistake"
        );
        assert_eq!(
            find(&["vi", "har", "bestämt", "oss"], "bestäm*"),
            Some(2),
            "a prefix covers inflections"
        );
        assert_eq!(
            find(&["i", "will"], "i will go"),
            None,
            "a phrase must match to its end"
        );
    }
}
