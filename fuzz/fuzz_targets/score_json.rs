//! Arbitrary bytes as a `POST /v1/score` body: both JSON readers, validation,
//! scoring and the response body written straight from the core.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| faan_fuzz::score_json(data));
