//! Placeholder: the corpus benchmark (bench/corpus.jsonl) is being written.
fn main() {}
