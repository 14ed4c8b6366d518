use super::*;
use chrono::DateTime;

fn at(ts: &str) -> chrono::DateTime<chrono::FixedOffset> {
    DateTime::parse_from_rfc3339(ts).unwrap_or_else(|e| panic!("bad test timestamp {ts}: {e}"))
}

#[test]
fn debug_dump() {
    let text = "Hvad er hovedstaden i Australien?";
    let m = MessageInput { role: crate::model::Role::User, text, timestamp: at("2026-03-09T20:40:00+01:00") };
    let t = token::tokenize(text);
    let s = segment::sentences(&t);
    println!("{:?}", s);
    println!("{:?}", lang::guess(&t));
    println!("{:#?}", extract(&m));
}
