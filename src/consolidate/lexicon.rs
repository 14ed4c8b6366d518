//! Word lists of the fact rules, in English, Swedish and Danish (canonical lowercase words;
//! contractions are expanded by the tokenizer, so "i am" covers "I'm").

pub(super) const LIKES: &[&str] = &[
    "i love", "i like", "i really like", "i adore", "i enjoy", "i really love", "jag älskar",
    "jag gillar", "jag tycker om", "jeg elsker", "jeg kan lide", "jeg kan godt lide",
    "jeg holder af", "i am a fan of", "i am a big fan of", "i am a huge fan of", "jag är ett fan av",
    "jeg er fan af",
];

pub(super) const DISLIKES: &[&str] = &[
    "i hate", "i dislike", "i do not like", "i can not stand", "i no longer like", "i detest",
    "i do not enjoy", "jag hatar", "jag avskyr", "jag gillar inte", "jag tycker inte om",
    "jag gillar inte längre", "jag tål inte", "jeg hader", "jeg kan ikke lide",
    "jeg kan ikke længere lide", "jeg afskyr", "jeg bryder mig ikke om", "i am not a fan of",
    "i am no fan of", "jag är inget fan av", "jag är inte ett fan av", "jeg er ikke fan af",
];

/// Words that make a sentence a hedge or a hypothetical: no fact at all (seed 003: "I might
/// try Python" must not become a fact).
pub(super) const HEDGES: &[&str] = &[
    "might", "maybe", "perhaps", "possibly", "probably", "considering", "wondering", "if", "would",
    "could", "someday", "kanske", "möjligen", "eventuellt", "funderar", "troligen", "skulle",
    "kunde", "måske", "muligvis", "eventuelt", "overvejer", "hvis", "ville", "kunne",
    "sandsynligvis",
];

/// Multi-word hedges.
pub(super) const HEDGE_PHRASES: &[&str] = &[
    "thinking about", "thinking of", "not sure", "tänker på", "tænker på", "i guess",
];

/// Verbs of saying and thinking: a first-person statement after one is reported, not stated.
pub(super) const REPORTING: &[&str] = &[
    "said", "says", "say", "told", "tells", "thinks", "think", "thought", "claims", "claimed",
    "wrote", "writes", "sa", "sade", "säger", "sagt", "tror", "trodde", "skrev", "siger", "sagde",
    "mener", "synes", "skriver",
];

/// Words that mark a correction of something said before.
pub(super) const CORRECTION_MARKS: &[&str] = &[
    "actually", "correction", "faktiskt", "egentligen", "rättelse", "faktisk", "egentlig",
    "rettelse",
];

/// Words that end a value.
pub(super) const STOPS: &[&str] = &[
    "and", "but", "for", "since", "because", "at", "in", "on", "with", "so", "now", "anymore",
    "too", "also", "to", "from", "as", "when", "och", "men", "för", "eftersom", "på", "hos", "med",
    "så", "nu", "längre", "också", "till", "som", "när", "og", "fordi", "til", "det", "den",
    "længere", "også", "mere", "mer", "more", "i", "is", "was", "not", "inte", "ikke", "very",
    "really", "much", "a", "lot",
];

/// First words that make a preference object a pronoun or a clause, not a thing.
pub(super) const NOT_OBJECTS: &[&str] = &[
    "it", "that", "this", "these", "those", "you", "him", "her", "them", "to", "how", "when",
    "what", "the", "your", "den", "det", "detta", "dette", "dig", "dem", "att", "at", "när", "hur",
    "når", "hvordan", "honom", "henne", "ham", "hende", "er", "ni", "jer",
];

/// First words after "I am" / "jag är" / "jeg er" that describe a state, not a job.
pub(super) const NOT_ROLES: &[&str] = &[
    "ansat", "anställd", "employed", "working", "based", "allergic", "allergisk", "expert",
    "ekspert", "specialiserad", "specialiseret", "flyttet", "startet", "bit", "little", "lot",
    "big", "huge", "fan", "lite", "lidt", "glad", "trött", "træt", "sur", "ny", "new",
];

/// More states that follow "jag är"/"jeg er" and are no job.
pub(super) const NOT_ROLES_MORE: &[&str] = &[
    "hemma", "hjemme", "kvar", "tilbage", "tillbaka", "ute", "inne", "sent", "sen", "here", "there",
    "home", "back", "vegetarian", "vegan", "vegetar", "veganer",
];

pub(super) const LANGUAGES: &[&str] = &[
    "english", "swedish", "danish", "norwegian", "finnish", "german", "french", "spanish",
    "estonian", "italian", "dutch", "polish", "russian", "arabic", "chinese", "japanese",
    "portuguese", "engelska", "svenska", "danska", "norska", "finska", "tyska", "franska",
    "spanska", "estniska", "engelsk", "svensk", "dansk", "norsk", "finsk", "tysk", "fransk",
    "spansk", "estisk",
];

pub(super) const STYLES: &[&str] = &[
    "short", "brief", "concise", "direct", "detailed", "long", "formal", "informal", "casual",
    "korta", "kortfattade", "raka", "detaljerade", "långa", "formella", "korte", "kortfattede",
    "direkte", "detaljerede", "lange",
];

pub(super) const STYLE_NOUNS: &[&str] = &[
    "answers", "replies", "responses", "svar", "replies", "messages", "svaren", "svarene",
];

pub(super) const FAMILY: &[&str] = &[
    "wife", "husband", "partner", "son", "daughter", "mother", "father", "mom", "mum", "dad",
    "brother", "sister", "girlfriend", "boyfriend", "fiancée", "fiance", "fiancé", "fru", "man",
    "sambo", "dotter", "mamma", "pappa", "bror", "syster", "flickvän", "pojkvän", "kone", "mand",
    "kæreste", "søn", "datter", "mor", "far", "søster",
];

pub(super) const PETS: &[&str] = &[
    "dog", "cat", "horse", "rabbit", "hund", "katt", "kat", "häst", "hest", "kanin",
];

/// Openings before a diet word ("I'm vegetarian now", "jeg er blevet veganer").
pub(super) const DIET_LEADS: &[&str] = &[
    "i am", "i am now", "i have become", "i have gone", "i went", "jag är", "jag är nu",
    "jag har blivit", "jeg er", "jeg er nu", "jeg er blevet",
];

pub(super) const DIETS: &[&str] = &[
    "vegetarian", "vegan", "pescatarian", "pescetarian", "vegetarisk", "vegetar", "veganer",
    "flexitarian", "flexitarier",
];

/// Openings that end a diet ("I'm no longer vegetarian").
pub(super) const DIET_ENDS: &[&str] = &[
    "i am no longer", "i am not", "i am not a", "jag är inte längre", "jag är inte", "jeg er ikke længere",
    "jeg er ikke",
];

/// Ways of saying a liking is over ("I used to love X"): it ends, nothing new starts.
pub(super) const USED_TO_LIKE: &[&str] = &[
    "i used to love", "i used to like", "i once loved", "jag brukade gilla", "jag brukade älska",
    "jag älskade förut", "jeg plejede at elske", "jeg plejede at kunne lide", "jeg elskede før",
];

/// Openings of a free statement about the user, a lasting trait or habit with no named
/// attribute ("I'm terrified of flying", "jag har svårt för folkmassor", "jeg lider af
/// migræne"). Only at the start of a sentence; transient states ("I'm tired") are not here.
pub(super) const STATEMENT_LEADS: &[&str] = &[
    "i am afraid of", "i am scared of", "i am terrified of", "i am frightened of", "i fear",
    "i have a phobia of", "i have a fear of", "i suffer from", "i struggle with", "i am bad at",
    "i am good at", "i am terrible at", "i am great at", "i prefer", "i care about",
    "i am passionate about", "i believe in", "i am a morning person", "i am a night owl",
    "i am an introvert", "i am an extrovert", "i am colour blind", "i am color blind",
    "i am left-handed", "i am right-handed", "i get seasick", "i get carsick", "i am diabetic",
    "i have diabetes", "i have asthma", "i have adhd", "i have dyslexia", "i am dyslexic",
    "i usually", "i always", "i never", "i have never", "i do not drink", "i do not eat",
    "i do not smoke",
    "jag är rädd för", "jag är livrädd för", "jag är jätterädd för", "jag har flygrädsla",
    "jag lider av", "jag har svårt för", "jag är dålig på", "jag är bra på", "jag föredrar",
    "jag bryr mig om", "jag tror på", "jag är morgonmänniska", "jag är en morgonmänniska",
    "jag är nattmänniska", "jag är en nattuggla", "jag är introvert", "jag är extrovert",
    "jag är färgblind", "jag är vänsterhänt", "jag blir sjösjuk", "jag blir åksjuk",
    "jag har diabetes", "jag har astma", "jag har adhd", "jag har dyslexi", "jag brukar",
    "jag har aldrig", "jag dricker inte", "jag äter inte", "jag röker inte",
    "jeg er bange for", "jeg er rædselsslagen for", "jeg er skrækslagen for", "jeg har flyskræk",
    "jeg lider af", "jeg har svært ved", "jeg er dårlig til", "jeg er god til", "jeg foretrækker",
    "jeg går op i", "jeg tror på", "jeg er morgenmenneske", "jeg er et morgenmenneske",
    "jeg er b-menneske", "jeg er et b-menneske", "jeg er introvert", "jeg er ekstrovert",
    "jeg er farveblind", "jeg er venstrehåndet", "jeg bliver søsyg", "jeg bliver køresyg",
    "jeg har diabetes", "jeg har astma", "jeg har adhd", "jeg er ordblind", "jeg plejer at",
    "jeg har aldrig", "jeg drikker ikke", "jeg spiser ikke", "jeg ryger ikke",
];

/// Habit adverbs in the second place after "jag"/"jeg"/"I" and a verb ("jag äter aldrig
/// kött", "jeg cykler altid til arbejde"): a statement too.
pub(super) const HABIT_ADVERBS: &[&str] = &["always", "never", "alltid", "aldrig", "altid"];

/// First words that make a preference object a quantity or somebody else's thing, not a
/// kind of thing the user likes ("I love all the yellow leaves" about a shared photo, "a fan
/// of both classical like …"): no preference is read.
pub(super) const NOT_OBJECTS_MORE: &[&str] = &[
    "all", "both", "some", "any", "every", "each", "everything", "everyone", "everybody",
    "anything", "something", "nothing", "his", "their", "such", "so", "just", "those", "alla",
    "allt", "båda", "hela", "något", "allting", "alle", "alt", "begge", "hele", "noget",
    "hendes", "deres", "hans",
];

/// Light verbs that say nothing by themselves: an object that is only one of these was cut
/// before its complement ("I love being a mom" → `being`), a fragment.
pub(super) const LIGHT_OBJECTS: &[&str] = &[
    "being", "having", "getting", "doing", "going", "making", "feeling", "becoming", "vara",
    "ha", "få", "göra", "være", "have", "gøre",
];

/// Words that address the other person in the conversation, or the user and them together: a
/// clause with one is about the user's relation to the listener ("I'm always here for you",
/// "I love hearing from you", "I believe in us"),
/// social talk, not a lasting trait or taste of the user's. (Swedish/Danish `er` is left out:
/// it is also the Danish verb "is".)
pub(super) const SECOND_PERSON: &[&str] = &[
    "you", "your", "yours", "yourself", "yourselves", "ya", "u", "du", "dig", "din", "ditt",
    "dina", "dit", "dine", "jer", "jeres", "deg", "us", "oss", "os",
];

/// Social formulas: said to keep a conversation going, they state nothing about the user and
/// promise nothing to do ("I'll keep you posted", "let me know", "talk soon", "jag hör av
/// mig", "vi ses").
pub(super) const PHATIC: &[&str] = &[
    "keep you posted", "keep ya posted", "keep u posted", "keep you updated", "keep you in the loop",
    "let you know", "let me know", "talk soon", "talk later", "talk to you", "speak soon",
    "see you", "catch you", "catch up soon", "take care", "here for you", "there for you",
    "here if you", "happy to help", "glad to help", "good luck", "hör av mig", "hör av dig",
    "hörs", "vi ses", "ha det", "ta hand om dig", "lycka till", "hører fra", "høres ved",
    "holder dig opdateret", "hold mig opdateret", "pas på dig selv", "held og lykke",
    "by your side", "at your side", "vid din sida", "vid er sida", "ved din side",
    "ved jeres side", "give lyd", "giver lyd", "give you a shout", "give you a holler",
    "drop you a line", "slå en signal", "slår en signal", "give et praj", "giver et praj",
];

/// Conjunctions that open a clause of time after a social formula ("let you know *once* I'm
/// done", "hör av mig *när* jag är hemma", "giver lyd *når* jeg er færdig"): what follows only
/// says when the formula applies.
pub(super) const PHATIC_WHEN: &[&str] = &[
    "once", "after", "when", "whenever", "as", "när", "efter", "så", "når",
];

/// Words that may follow a social formula and keep it one ("let me know how it goes", "talk
/// to you soon", "hör av dig sen").
pub(super) const PHATIC_TAIL: &[&str] = &[
    "how", "it", "goes", "went", "turns", "out", "what", "happens", "soon", "later", "then",
    "ok", "okay", "everything", "on", "that", "this", "about", "all", "again", "guys", "when",
    "hur", "det", "går", "gick", "snart", "sen", "igen", "hvordan", "gik", "senere", "if", "you",
    "need", "anything", "want", "whenever", "om", "du", "behöver", "något", "hvis", "har", "brug",
    "for", "noget", "around", "my", "thoughts",
];

/// Auxiliaries and modals that may stand where a habit's verb stands ("I'll always remember
/// our trip", "I'll never forget that day"): a sentiment about an event or a plan, not a habit.
pub(super) const NOT_HABIT_VERBS: &[&str] = &[
    "will", "would", "shall", "should", "can", "could", "may", "must", "did", "was", "were",
    "had", "ska", "skall", "skulle", "kan", "kunde", "måste", "vill", "skal", "ville", "kunne",
    "må", "var", "gjorde", "vil", "havde",
];

/// Verbs of lasting taste after "will always" ("I will always love reading", "jeg vil altid
/// elske jazz"): with one, "will" in the verb's place still makes a statement.
pub(super) const LASTING_TASTES: &[&str] = &[
    "love", "like", "enjoy", "adore", "prefer", "hate", "älska", "gilla", "föredra", "hata",
    "elske", "foretrække", "hade",
];

/// Verbs of wishing after a statement's opening ("I've always wanted to try …", "jag har
/// alltid velat …", "jeg har altid drømt om …"): a wish, not a fact about the user.
pub(super) const WISHES: &[&str] = &[
    "wanted", "wished", "wish", "dreamed", "dreamt", "hoped", "longed", "velat", "önskat",
    "drömt", "längtat", "hoppats", "villet", "ønsket", "drømt", "håbet", "længtes",
];

/// Present verbs of wishing, a wish only before an infinitive or what is hoped for ("I never
/// *want to* go through this again", "jeg *håber* altid *på* sol"), where "I always want my
/// coffee black" is a taste.
pub(super) const PRESENT_WISHES: &[&str] = &[
    "want", "wants", "hope", "hopes", "vill", "önskar", "hoppas", "ønsker", "håber",
];

/// What follows a present wish ([`PRESENT_WISHES`]) within two words: an infinitive marker or
/// the preposition of what is hoped for.
pub(super) const WISHED_FOR: &[&str] = &["to", "for", "att", "på", "om", "at"];

/// Prepositions that may follow a gerund object and carry its complement ("experimenting *in*
/// the kitchen", "curling up *with* a good book").
pub(super) const PREPOSITIONS: &[&str] = &[
    "in", "on", "with", "to", "at", "into", "from", "for", "about", "through", "around", "by",
    "over", "under", "up", "out",
];

/// Words that end a clause inside a sentence: a gerund object read on stops before them.
pub(super) const CLAUSE_ENDS: &[&str] = &[
    "and", "but", "because", "since", "so", "when", "while", "too", "also", "anymore", "as",
    "or", "than", "och", "men", "eftersom", "så", "när", "medan", "också", "längre", "eller",
    "og", "fordi", "når", "mens", "også", "længere", "lot", "more", "mer", "mere",
];

/// Coordinating conjunctions between the parts of one object ("action *and* sci-fi
/// movies"), en/sv/da.
pub(super) const COORDINATORS: &[&str] = &["and", "or", "och", "eller", "og"];

/// Finite verbs that may follow a liking verb only when the liking is a relative clause ("the
/// things I love *makes* writing fun", "det jag älskar *är* …").
pub(super) const FINITE_VERBS: &[&str] = &[
    "is", "are", "was", "were", "makes", "make", "made", "has", "gets", "keeps", "är", "var",
    "gör", "blir", "er", "gør", "bliver",
];

/// Object pronouns that point at a thing or person of the conversation ("I love watching
/// *them* play"): a preference object holding one names nothing. Swedish and Danish `den` and
/// `det` are left out: they are also articles ("den nya boken").
pub(super) const POINTING_PRONOUNS: &[&str] = &[
    "it", "them", "him", "her", "'em", "em", "dem", "honom", "henne", "ham", "hende",
];

/// Demonstratives that, before a preference object's last word, make it a pointer at what was
/// said or shown ("that world", "den där boken", "dette sted").
pub(super) const DEMONSTRATIVES: &[&str] = &[
    "that", "this", "those", "these", "där", "denna", "detta", "dessa", "denne", "dette",
    "disse",
];

/// Words after an English gerund that show it takes an object of its own ("playing
/// *different* songs", "baking *the* bread"): a preposition after that object still belongs to
/// the liking ("… on the piano"). Swedish and Danish say the same with an infinitive ("att
/// spela", "at bage"), which is no preference object at all.
pub(super) const GERUND_OBJECT_OPENERS: &[&str] = &[
    "a", "an", "the", "my", "our", "some", "new", "different", "various", "other",
];

/// Adverbs of degree that may stand before "allergic" ("I'm *severely* allergic to peanuts",
/// "jag är *kraftigt* allergisk mot nötter", "jeg er *meget* allergisk over for nødder"): they
/// say how much, not whether, so the allergy rule reads past them.
pub(super) const DEGREE_ADVERBS: &[&str] = &[
    "severely", "very", "quite", "mildly", "slightly", "extremely", "highly", "really", "so",
    "super", "deathly", "seriously", "badly", "terribly", "pretty", "also", "too", "a", "bit",
    "little", "kraftigt", "väldigt", "mycket", "svårt", "lätt", "lite", "starkt", "jätte",
    "extremt", "ganska", "rätt", "också", "meget", "svært", "stærkt", "lidt", "voldsomt", "ret",
    "temmelig", "ganske", "ekstremt", "også", "slemt", "mildt",
];

/// Words that, before an occupation, make it no current job of the user's ("a *retired*
/// teacher", "en *före detta* polis"), or a judgement of how they do something ("a *good*
/// cook", "a *terrible* driver", "en *dålig* förare"): no role is read.
pub(super) const NOT_OCCUPATION_MODIFIERS: &[&str] = &[
    "retired", "former", "ex", "previous", "future", "aspiring", "wannabe", "would-be", "good",
    "great", "bad", "terrible", "awful", "horrible", "careful", "fast", "slow", "decent", "keen",
    "avid", "amateur", "hobby", "natural", "born", "better", "worse", "best", "worst", "lousy",
    "big", "huge", "hard", "pensionerad", "pensionerade", "pensioneret", "före", "detta",
    "tidigare", "tidligere", "forhenværende", "blivande", "kommende", "bra", "dålig", "duktig",
    "god", "dårlig", "elendig", "hobby-", "amatör", "amatør",
];

/// Capitalised words that are given names and also common words ("I'm Frank", "I'm Joy"
/// could be either, and "I'm Christian" is a faith): a self-introduction with one alone,
/// without a surname after it, names nobody.
pub(super) const NAME_OR_WORD: &[&str] = &[
    "will", "april", "may", "june", "rose", "joy", "grace", "dawn", "frank", "mark", "max",
    "bill", "sue", "ray", "hope", "faith", "summer", "sunny", "christian", "kristen", "sky",
    "honey", "ruby", "amber", "ivy", "lily", "rich", "happy", "early",
];

/// Past forms of moving house, after a first-person subject and its auxiliary ("we *moved*",
/// "vi har *flyttat*", "vi er *flyttet*").
pub(super) const MOVED: &[&str] = &[
    "moved", "relocated", "flyttade", "flyttat", "flyttet", "flyttede", "flytt",
];

/// Auxiliaries of a perfect move ("we *have* moved", "vi *har* flyttat", "vi *er* flyttet").
pub(super) const MOVE_AUX: &[&str] = &["have", "has", "had", "har", "hade", "er", "är", "var"];

/// Adverbs that may stand around a move's verb and say only when or which way ("we've *just*
/// moved", "vi er *lige* flyttet", "vi har *precis* flyttat", "we moved *back* to …").
pub(super) const MOVE_ADVERBS: &[&str] = &[
    "just", "recently", "finally", "now", "already", "back", "over", "up", "down", "out", "home",
    "lige", "netop", "nylig", "nyligt", "endelig", "nu", "allerede", "tilbage", "hjem",
    "precis", "nyss", "nyligen", "äntligen", "redan", "tillbaka", "hem", "hit", "her", "hertil",
];

/// Prepositions of a move's origin ("from Copenhagen", "från Göteborg", "fra Odense").
pub(super) const MOVE_FROM: &[&str] = &["from", "från", "fra"];

/// Prepositions of a move's destination ("to Aarhus", "till Stockholm", "til Aalborg").
pub(super) const MOVE_TO: &[&str] = &["to", "till", "til"];

/// Family words for a partner: a breakup ends these, and only these.
pub(super) const PARTNERS: &[&str] = &[
    "wife", "husband", "partner", "girlfriend", "boyfriend", "fiancée", "fiance", "fiancé",
    "fru", "man", "sambo", "flickvän", "pojkvän", "kone", "mand", "kæreste", "forlovede",
    "fästmö", "fästman",
];

/// Words before a family word that say the relation is over ("my *late* husband Bo", "my
/// *former* partner", "min *förra* pojkvän", "min *tidligere* kæreste"); "ex-" written on the
/// word itself ("ex-boyfriend", "exman", "ekskæreste") says the same.
pub(super) const FORMER_KIN: &[&str] = &[
    "ex", "former", "late", "previous", "förra", "tidigare", "avlidne", "framlidne", "f.d",
    "tidligere", "forhenværende", "afdøde", "eks",
];

/// Prefixes written on a family word that make it a former one ("ex-boyfriend", "exfru").
pub(super) const EX_PREFIXES: &[&str] = &["ex-", "eks-", "ex", "eks"];

/// What may follow a pet or family word (and its name) and say it died ("My cat Misse *died*",
/// "Vår hund Sixten *dog* i våras", "Vores kat *døde*", "*has passed away*", "*är död*"): the
/// relation is no current one, so the claim ends rather than starts.
pub(super) const DIED: &[&str] = &[
    "died", "has died", "had died", "passed away", "has passed away", "is dead",
    "was put down", "had to be put down", "was put to sleep", "had to be put to sleep",
    "sadly died", "sadly passed away", "dog", "dött", "har dött", "är död", "somnade in",
    "har somnat in", "fick somna in", "gick bort", "har gått bort", "avlivades", "har avlivats",
    "fick avlivas", "døde", "er død", "er døde", "sov ind", "er sovet ind", "blev aflivet",
    "er blevet aflivet", "måtte aflives", "gik bort", "er gået bort", "tyvärr dog",
    "desværre døde", "just died", "lige døde", "nyss dog",
];

/// Verbs before a possessive that say a pet or relative was lost ("we *lost* our dog Bosse",
/// "vi *förlorade* vår katt", "vi *mistede* vores hund", "we had to put *down* our cat").
pub(super) const LOST_BEFORE: &[&str] = &[
    "lost", "have lost", "buried", "put down", "förlorade", "förlorat", "miste", "mistet", "mistede", "begravde",
    "begravede", "avlivade", "aflivede",
];

/// A breakup said by the user of themselves and their partner ("we broke up", "vi har gjort
/// slut", "vi er gået fra hinanden"): every partner fact held then ends.
pub(super) const BREAKUPS: &[&str] = &[
    "we broke up", "we have broken up", "we split up", "we have split up", "we separated",
    "we have separated", "we are separated", "we got divorced", "we are divorced",
    "we have divorced", "we divorced", "we are getting divorced", "we are no longer together",
    "we are not together anymore", "i am divorced", "i got divorced", "i am separated",
    "vi har gjort slut", "vi gjorde slut", "vi har separerat", "vi separerade",
    "vi har skilt oss", "vi skilde oss", "vi har skiljt oss", "vi skiljde oss", "vi är skilda",
    "vi har gått isär", "vi gick isär", "vi är inte längre tillsammans",
    "vi är inte tillsammans längre", "jag har skilt mig", "jag skilde mig", "jag är skild",
    "jag har skiljt mig", "jag skiljde mig", "vi er gået fra hinanden", "vi gik fra hinanden",
    "vi har slået op", "vi slog op", "vi er blevet skilt", "vi blev skilt", "vi er skilt",
    "vi er separeret", "vi er ikke længere sammen", "vi er ikke sammen længere",
    "jeg er blevet skilt", "jeg blev skilt", "jeg er skilt", "vi har gået fra hinanden",
];

/// A breakup with a named partner ("I broke up with Tom", "jag har gjort slut med Tom",
/// "jeg har slået op med Tom"): that partner's facts end. "I left my husband" is left out:
/// it is as often "… at the station".
pub(super) const BREAKUPS_WITH: &[&str] = &[
    "i broke up with", "i have broken up with", "i split up with", "i have split up with",
    "i divorced", "i have divorced", "i dumped", "i have dumped", "jag har gjort slut med",
    "jag gjorde slut med", "jag har skilt mig från", "jag skilde mig från",
    "jeg har slået op med", "jeg slog op med", "jeg er blevet skilt fra", "jeg blev skilt fra",
];
