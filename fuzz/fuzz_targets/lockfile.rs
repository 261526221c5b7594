//! `pnpm-lock.yaml` parsing (fast path and saphyr fallback).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pacquet_fuzz_harness::lockfile(data));
