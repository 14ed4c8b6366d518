//! Cross-language recall with the real embedding models: Swedish and Danish questions about
//! memories stored in English, and English questions about memories stored in Swedish and
//! Danish (issue 4, "The default embedding model, chosen by measurement").
//!
//! The 32 pairs below were written for this test: each is one memory and one question whose
//! only right answer is that memory. Every question is asked against all 56 memories (the 32
//! answers and 24 distractors in English, Swedish and Danish on other everyday topics, a few of
//! them deliberately close in words: coffee, back pain, a summer cottage), so each right answer
//! competes with 55 others. Ranking is the model's alone: cosine of the query vector (e5's
//! "query: " prefix) against each memory's vector ("passage: "), so the figures measure the
//! model, not BM25 (which cannot match across languages anyway) or the rest of recall.
//!
//! The test prints hit@1 and hit@5 per direction for both models, and asserts that the default
//! model (`minne::settings::DEFAULT_MODEL`) reaches the bar below. Measured on this machine
//! (docs/benchmarks.md, "Default embedding model"): multilingual-e5-small found 20 of 32 right
//! answers first (hit@1 0.625) and 25 in the top five (hit@5 0.781); all-MiniLM-L6-v2 found 0
//! and 2 (0.000 and 0.062), below chance with 56 memories (1/56 = 0.018 and 5/56 = 0.089),
//! because MiniLM ranks by language first: a Swedish question finds Swedish memories. The
//! bar, hit@1 ≥ 0.50 and hit@5 ≥ 0.70, sits four and two to three questions under e5's
//! figures (one question is 0.031), so it holds against small numeric drift (another ONNX
//! Runtime build) and fails for a model that does not work across languages.
//!
//! Run: `cargo test -p minne --test cross_language -- --nocapture`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

mod common;

use minne::embed::{self, Embedder, ModelChoice, cosine};
use minne::settings::DEFAULT_MODEL;

/// The default model must find at least this share of right answers first.
const BAR_HIT_AT_1: f64 = 0.50;
/// ... and at least this share among the first five.
const BAR_HIT_AT_5: f64 = 0.70;

/// (direction, memory, question): the question's only right answer is the memory.
const PAIRS: &[(&str, &str, &str)] = &[
    // Swedish questions, English memories.
    (
        "sv→en",
        "My sister Karin is allergic to peanuts, so never suggest satay when she visits.",
        "Vad är min syster allergisk mot?",
    ),
    (
        "sv→en",
        "I switched my electricity contract to a fixed price until next October.",
        "Hur länge gäller mitt elavtal med fast pris?",
    ),
    (
        "sv→en",
        "The car needs new winter tyres before the first of December.",
        "När måste bilen få vinterdäck?",
    ),
    (
        "sv→en",
        "We decided to paint the bedroom a dark green colour called forest moss.",
        "Vilken färg valde vi till sovrummet?",
    ),
    (
        "sv→en",
        "My dentist appointment was moved to Thursday at 8:30 in the morning.",
        "När är min tandläkartid?",
    ),
    (
        "sv→en",
        "Our daughter starts violin lessons at the music school on Wednesdays.",
        "Vilken dag har dottern fiollektion?",
    ),
    (
        "sv→en",
        "I promised my manager the quarterly budget report by Friday.",
        "Vad lovade jag chefen att leverera?",
    ),
    (
        "sv→en",
        "The Wi-Fi password at the summer cottage is written on a note on the fridge.",
        "Var hittar jag wifi-lösenordet i sommarstugan?",
    ),
    // Danish questions, English memories.
    (
        "da→en",
        "I'm training for the Copenhagen half marathon in September.",
        "Hvilket løb træner jeg til?",
    ),
    (
        "da→en",
        "My grandmother's birthday is on the 14th of March; she turns ninety.",
        "Hvornår har min farmor fødselsdag?",
    ),
    (
        "da→en",
        "The landlord said the broken radiator in the living room will be fixed next week.",
        "Hvad sagde udlejeren om radiatoren?",
    ),
    (
        "da→en",
        "I stopped drinking coffee after lunch because it ruined my sleep.",
        "Hvorfor drikker jeg ikke kaffe om eftermiddagen?",
    ),
    (
        "da→en",
        "Jonas lent me his tent for the camping trip and wants it back by August.",
        "Hvem lånte mig et telt?",
    ),
    (
        "da→en",
        "We chose the insurance with the lower deductible for the new apartment.",
        "Hvilken forsikring valgte vi til lejligheden?",
    ),
    (
        "da→en",
        "My passport expires in June, so I have to renew it before the trip to Japan.",
        "Hvornår udløber mit pas?",
    ),
    (
        "da→en",
        "The cat has to take her thyroid medicine twice a day with food.",
        "Hvor tit skal katten have sin medicin?",
    ),
    // English questions, Swedish memories.
    (
        "en→sv",
        "Jag har bokat bord på den italienska restaurangen på lördag klockan sju.",
        "When is our restaurant reservation?",
    ),
    (
        "en→sv",
        "Min bror flyttar till Göteborg i maj och behöver hjälp med flytten.",
        "Where is my brother moving to?",
    ),
    (
        "en→sv",
        "Jag har slutat äta kött sedan i januari, men jag äter fortfarande fisk.",
        "What did I stop eating in January?",
    ),
    (
        "en→sv",
        "Läkaren sa att mitt blodtryck är lite för högt och att jag ska röra mig mer.",
        "What did the doctor say about my blood pressure?",
    ),
    (
        "en→sv",
        "Vi har bestämt att semestern i år blir en tågresa genom Norge.",
        "How are we travelling on holiday this year?",
    ),
    (
        "en→sv",
        "Styrelsemötet för bostadsrättsföreningen är flyttat till den tredje april.",
        "When is the housing association's board meeting?",
    ),
    (
        "en→sv",
        "Min nya cykel blev stulen utanför stationen i tisdags.",
        "What happened to my new bike?",
    ),
    (
        "en→sv",
        "Jag lovade att baka en chokladtårta till Emils studentfest.",
        "What did I promise to bake for the graduation party?",
    ),
    // English questions, Danish memories.
    (
        "en→da",
        "Jeg er begyndt at lære spansk på aftenskole hver mandag.",
        "Which language am I learning at evening school?",
    ),
    (
        "en→da",
        "Vores køleskab er gået i stykker, og en tekniker kommer på fredag.",
        "When is the technician coming to repair the fridge?",
    ),
    (
        "en→da",
        "Min kollega Mette går på barsel fra næste måned, så jeg overtager hendes kunder.",
        "Whose clients am I taking over?",
    ),
    (
        "en→da",
        "Vi har købt et sommerhus ved Vesterhavet tæt på Skagen.",
        "Where did we buy a summer house?",
    ),
    (
        "en→da",
        "Jeg har ondt i knæet efter fodboldkampen og skal til fysioterapeut.",
        "Why am I seeing a physiotherapist?",
    ),
    (
        "en→da",
        "Husk at vores søn skal have madpakke med på tirsdag, fordi de tager i skoven.",
        "Why does our son need a packed lunch on Tuesday?",
    ),
    (
        "en→da",
        "Jeg har opsagt abonnementet på avisen, fordi jeg aldrig læser den.",
        "Which subscription did I cancel?",
    ),
    (
        "en→da",
        "Banken har godkendt vores boliglån med en fast rente på fire procent.",
        "What interest rate did the bank give us on the mortgage?",
    ),
];

/// Memories that answer none of the questions: everyday notes in the three languages.
const DISTRACTORS: &[&str] = &[
    "The team agreed to move the product launch to the second week of November.",
    "I finished the novel about the lighthouse keeper; the ending was sad.",
    "Remember to water the tomato plants on the balcony every evening.",
    "My laptop battery only lasts two hours now, I should get it replaced.",
    "We watched the football final at Lars's place and our team lost on penalties.",
    "The lentil soup needs more cumin than the recipe says.",
    "I want to learn to sail, maybe with a weekend course in the archipelago.",
    "Anna recommended a podcast about Nordic history.",
    "Vi måste byta lås på förrådet eftersom nyckeln har försvunnit.",
    "Jag tycker att det nya kaffet från rosteriet är för beskt.",
    "Mormor skickade ett recept på kanelbullar som vi ska testa i helgen.",
    "Kontoret stänger tidigt på fredag på grund av personalfesten.",
    "Jag har fått ont i ryggen av den gamla kontorsstolen.",
    "Sara har fått ett nytt jobb som sjuksköterska i Lund.",
    "Vi såg en älg vid vägen när vi körde hem från stugan.",
    "Grannarna renoverar badrummet hela oktober, så det blir mycket oväsen.",
    "Min telefon er begyndt at genstarte af sig selv flere gange om dagen.",
    "Vi skal huske at betale regningen for vand og varme inden den femte.",
    "Peter har inviteret os til grillfest i hans have på søndag.",
    "Jeg har meldt mig til en keramikworkshop i Aarhus.",
    "Bussen til arbejdet er aflyst på grund af vejarbejde.",
    "Min søster har fået en hundehvalp, der hedder Bamse.",
    "Vi har bestilt nye gardiner til stuen, men de er forsinket.",
    "Jeg glemte min paraply på biblioteket i går.",
];

/// hit@1 and hit@5 of one model, overall and per direction.
#[derive(Debug)]
struct Figures {
    model: ModelChoice,
    overall: (f64, f64),
    by_direction: Vec<(&'static str, f64, f64, usize)>,
    misses: Vec<String>,
}

/// The 1-based rank of the right answer for each pair, by cosine over every memory.
fn ranks(e: &dyn Embedder) -> Vec<usize> {
    let memories: Vec<&str> = PAIRS
        .iter()
        .map(|(_, m, _)| *m)
        .chain(DISTRACTORS.iter().copied())
        .collect();
    let vectors = e.embed_passages(&memories).expect("embed the memories");
    assert_eq!(vectors.len(), memories.len(), "one vector per memory");
    PAIRS
        .iter()
        .enumerate()
        .map(|(right, (_, _, question))| {
            let q = e.embed_query(question).expect("embed the question");
            let own = cosine(&q, &vectors[right]);
            // Rank = 1 + the memories that score strictly higher (ties favour no one).
            1 + vectors
                .iter()
                .enumerate()
                .filter(|(i, v)| *i != right && cosine(&q, v) > own)
                .count()
        })
        .collect()
}

fn measure(choice: ModelChoice) -> minne::Result<Figures> {
    let e = embed::load(&common::models_dir(), choice)?;
    let ranks = ranks(e.as_ref());
    let share =
        |rs: &[usize], k: usize| rs.iter().filter(|r| **r <= k).count() as f64 / rs.len() as f64;
    let mut by_direction = Vec::new();
    for direction in ["sv→en", "da→en", "en→sv", "en→da"] {
        let rs: Vec<usize> = PAIRS
            .iter()
            .zip(&ranks)
            .filter(|((d, _, _), _)| *d == direction)
            .map(|(_, r)| *r)
            .collect();
        by_direction.push((direction, share(&rs, 1), share(&rs, 5), rs.len()));
    }
    let misses = PAIRS
        .iter()
        .zip(&ranks)
        .filter(|(_, r)| **r > 1)
        .map(|((d, _, q), r)| format!("{d} rank {r}: {q}"))
        .collect();
    Ok(Figures {
        model: choice,
        overall: (share(&ranks, 1), share(&ranks, 5)),
        by_direction,
        misses,
    })
}

fn print(f: &Figures) {
    println!(
        "{}: hit@1 {:.3}, hit@5 {:.3} over {} questions, 56 memories each",
        f.model,
        f.overall.0,
        f.overall.1,
        PAIRS.len()
    );
    for (d, h1, h5, n) in &f.by_direction {
        println!("  {d}: hit@1 {h1:.3}, hit@5 {h5:.3} ({n} questions)");
    }
    for m in &f.misses {
        println!("  not first: {m}");
    }
}

#[test]
fn the_pairs_are_what_the_test_claims() {
    // At least 30 pairs, 8 per direction, and at least 20 distractors besides them; no memory
    // or question twice, so each question has exactly one right answer.
    assert!(PAIRS.len() >= 30, "issue 4 asks for at least 30 pairs");
    assert!(DISTRACTORS.len() >= 20, "at least 20 distractors");
    for d in ["sv→en", "da→en", "en→sv", "en→da"] {
        assert_eq!(PAIRS.iter().filter(|p| p.0 == d).count(), 8, "{d}");
    }
    let mut texts: Vec<&str> = PAIRS
        .iter()
        .flat_map(|(_, m, q)| [*m, *q])
        .chain(DISTRACTORS.iter().copied())
        .collect();
    let n = texts.len();
    texts.sort_unstable();
    texts.dedup();
    assert_eq!(texts.len(), n, "every memory and question is distinct");
}

#[test]
fn the_default_model_recalls_across_swedish_danish_and_english() {
    let default = measure(DEFAULT_MODEL).unwrap_or_else(|e| {
        panic!("{e}\nthe default model must be set up: run scripts/setup-models.sh")
    });
    print(&default);
    for other in ModelChoice::ALL.into_iter().filter(|m| *m != DEFAULT_MODEL) {
        // The other model's figures are printed for the comparison; it may not be set up.
        match measure(other) {
            Ok(f) => print(&f),
            Err(e) => println!("{other}: not measured ({e})"),
        }
    }
    assert!(
        default.overall.0 >= BAR_HIT_AT_1 && default.overall.1 >= BAR_HIT_AT_5,
        "{} found {:.3} of the right answers first and {:.3} in the top five; the bar is {BAR_HIT_AT_1} and {BAR_HIT_AT_5}",
        DEFAULT_MODEL,
        default.overall.0,
        default.overall.1
    );
}
