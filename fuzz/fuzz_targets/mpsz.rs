//! Arbitrary bytes as MPSZ text: `parse_tiles`, and every tile field of a
//! score request (hand tiles, winning tile, meld tiles) under every ruleset.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| faan_fuzz::mpsz(data));
