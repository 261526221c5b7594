//! msgpackr `package_index` row decoding, and re-encoding what decodes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pacquet_fuzz_harness::store_index(data));
