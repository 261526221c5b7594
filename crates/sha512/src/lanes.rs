//! Feeding messages through `N` lanes: every lane holds one message; each
//! step compresses one block of every lane at once, and a lane whose
//! message is done takes the next one. Messages go longest first, so the
//! lanes run out of work at about the same time; what is left when fewer
//! than a quarter of the lanes are busy is finished one message at a time.

use crate::Hash;
use crate::block::{BLOCK, IV, block_count, words};

/// One compression step over `N` lanes. `state[i][lane]` is word `i` of a
/// lane's hash state, `w[j][lane]` word `j` of its block.
pub(crate) trait Engine<const N: usize> {
    /// # Safety
    /// The CPU must have the engine's target features.
    unsafe fn compress(state: &mut [[u64; N]; 8], w: &[[u64; N]; 16]);
}

/// A message in a lane.
#[derive(Clone, Copy)]
struct Job {
    input: usize,
    next_block: usize,
    blocks: usize,
}

/// The caller has checked the CPU has `E`'s target features.
pub(crate) fn digest_lanes<const N: usize, E: Engine<N>>(inputs: &[&[u8]]) -> Vec<Hash> {
    let mut order: Vec<usize> = (0..inputs.len()).collect();
    order.sort_unstable_by_key(|&i| std::cmp::Reverse(inputs[i].len()));
    let mut queue = order.into_iter();
    let mut out = vec![[0u8; 64]; inputs.len()];

    let mut state = [[0u64; N]; 8];
    let mut lanes: [Option<Job>; N] = [None; N];
    for (lane, slot) in lanes.iter_mut().enumerate() {
        *slot = queue
            .next()
            .map(|input| start(&mut state, lane, inputs[input], input));
    }
    let mut w = [[0u64; N]; 16];
    loop {
        let busy = lanes.iter().filter(|l| l.is_some()).count();
        if busy == 0 {
            break;
        }
        if queue.len() == 0 && busy * 4 < N {
            finish_one_by_one(&mut state, &lanes, inputs, &mut out);
            break;
        }
        for (lane, job) in lanes.iter().enumerate() {
            let Some(job) = job else { continue };
            let block = words(inputs[job.input], job.next_block, job.blocks);
            for (j, word) in block.into_iter().enumerate() {
                w[j][lane] = word;
            }
        }
        // SAFETY: the caller checked the CPU features.
        unsafe { E::compress(&mut state, &w) };
        for (lane, slot) in lanes.iter_mut().enumerate() {
            let Some(job) = slot else { continue };
            job.next_block += 1;
            if job.next_block == job.blocks {
                out[job.input] = hash_of(&state, lane);
                *slot = queue
                    .next()
                    .map(|input| start(&mut state, lane, inputs[input], input));
            }
        }
    }
    out
}

fn start<const N: usize>(state: &mut [[u64; N]; 8], lane: usize, data: &[u8], input: usize) -> Job {
    for (word, iv) in state.iter_mut().zip(IV) {
        word[lane] = iv;
    }
    Job {
        input,
        next_block: 0,
        blocks: block_count(data.len()),
    }
}

fn hash_of<const N: usize>(state: &[[u64; N]; 8], lane: usize) -> Hash {
    let mut hash = [0u8; 64];
    for (bytes, word) in hash.chunks_exact_mut(8).zip(state) {
        bytes.copy_from_slice(&word[lane].to_be_bytes());
    }
    hash
}

/// Finishes the messages still in lanes with the portable compression
/// function, from where the lanes left them.
fn finish_one_by_one<const N: usize>(
    state: &mut [[u64; N]; 8],
    lanes: &[Option<Job>; N],
    inputs: &[&[u8]],
    out: &mut [Hash],
) {
    for (lane, job) in lanes.iter().enumerate() {
        let Some(job) = job else { continue };
        let mut own: [u64; 8] = std::array::from_fn(|i| state[i][lane]);
        let data = inputs[job.input];
        for k in job.next_block..job.blocks {
            if let Some(full) = data.get(k * BLOCK..(k + 1) * BLOCK) {
                sha2::compress512(&mut own, std::slice::from_ref(full.into()));
                continue;
            }
            let mut bytes = [0u8; BLOCK];
            for (chunk, word) in bytes.chunks_exact_mut(8).zip(words(data, k, job.blocks)) {
                chunk.copy_from_slice(&word.to_be_bytes());
            }
            sha2::compress512(&mut own, &[bytes.into()]);
        }
        for (i, word) in own.into_iter().enumerate() {
            state[i][lane] = word;
        }
        out[job.input] = hash_of(state, lane);
    }
}
