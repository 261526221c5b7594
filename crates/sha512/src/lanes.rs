//! Feeding messages through `N` lanes: every lane holds one message; each
//! step compresses one block of every lane at once, and a lane whose
//! message is done takes the next one. Messages go longest first, so the
//! lanes run out of work at about the same time; what is left when fewer
//! than a quarter of the lanes are busy is finished one message at a time.

use crate::Hash;
use crate::block::{BLOCK, IV, block_count, padded_block};

/// One compression step over `N` lanes. `state[i][lane]` is word `i` of a
/// lane's hash state; `blocks[lane]` points to the lane's block as it is in
/// the message (big-endian words), which the engine loads and transposes in
/// its registers. Transposing through memory instead (a scalar store per
/// word, then a vector load of each word across the lanes) was a fifth of
/// the compression's cost in a cold install's profile; in registers,
/// `cargo bench -p pacquet-sha512` on npm-sized files went from 3.17 to
/// 3.52 GiB/s with AVX-512 and from 1.12 to 1.18 GiB/s with AVX2 (hardware
/// gathers instead: 2.93 and 1.02).
pub(crate) trait Engine<const N: usize> {
    /// # Safety
    /// The CPU must have the engine's target features, and each of
    /// `blocks` must point to [`BLOCK`] readable bytes.
    unsafe fn compress(state: &mut [[u64; N]; 8], blocks: &[*const u8; N]);
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
    // Idle lanes compress zeros; their state is never read.
    let idle = [0u8; BLOCK];
    let mut padded = [[0u8; BLOCK]; N];
    let mut blocks = [idle.as_ptr(); N];
    loop {
        let busy = lanes.iter().filter(|l| l.is_some()).count();
        if busy == 0 {
            break;
        }
        if queue.len() == 0 && busy * 4 < N {
            finish_one_by_one(&mut state, &lanes, inputs, &mut out);
            break;
        }
        for ((block, job), padded) in blocks.iter_mut().zip(&lanes).zip(&mut padded) {
            *block = match job {
                Some(job) => block_of(inputs[job.input], job, padded),
                None => idle.as_ptr(),
            };
        }
        // SAFETY: the caller checked the CPU features; every pointer is to
        // a whole block of an input, of `padded` or of `idle`, untouched
        // until the call returns.
        unsafe { E::compress(&mut state, &blocks) };
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

/// Where the job's next block is: in `data` when it is whole there, else
/// written into `padded`.
fn block_of(data: &[u8], job: &Job, padded: &mut [u8; BLOCK]) -> *const u8 {
    let start = job.next_block * BLOCK;
    match data.get(start..start + BLOCK) {
        Some(whole) => whole.as_ptr(),
        None => {
            *padded = padded_block(data, job.next_block, job.blocks);
            padded.as_ptr()
        }
    }
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
            let bytes = padded_block(data, k, job.blocks);
            sha2::compress512(&mut own, &[bytes.into()]);
        }
        for (i, word) in own.into_iter().enumerate() {
            state[i][lane] = word;
        }
        out[job.input] = hash_of(state, lane);
    }
}
