//! Arbitrary bytes decoded into a structured request (hand, context, house
//! rules): `score` and `waits` under every ruleset must never panic and must
//! keep the contract's invariants.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| faan_fuzz::score_core(data));
