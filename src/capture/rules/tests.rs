use super::*;
use chrono::DateTime;

fn at(ts: &str) -> chrono::DateTime<chrono::FixedOffset> {
    DateTime::parse_from_rfc3339(ts).unwrap_or_else(|e| panic!("bad test timestamp {ts}: {e}"))
}

#[test]
fn debug_dump() {
    let text = "Correction: the Parker demo is on the 15th, not the 8th. I'll update the calendar invite.";
    let m = MessageInput { role: crate::model::Role::Assistant, text, timestamp: at("2026-10-07T09:06:00-04:00") };
    let t = token::tokenize(text);
    let s = segment::sentences(&t);
    println!("{:?}", s);
    println!("{:#?}", extract(&m));
}
