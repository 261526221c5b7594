use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Barrier, Mutex};

use super::OneAtATime;

#[test]
fn every_job_runs_once_and_never_two_at_a_time() {
    let jobs = OneAtATime::new();
    let (inside, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let ran = Mutex::new(Vec::new());
    let run = |job: usize| {
        let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
        most.fetch_max(now, Ordering::SeqCst);
        std::thread::yield_now();
        ran.lock().unwrap().push(job);
        inside.fetch_sub(1, Ordering::SeqCst);
        Ok::<(), ()>(())
    };
    std::thread::scope(|s| {
        for t in 0..4 {
            let (jobs, run) = (&jobs, &run);
            s.spawn(move || {
                for i in 0..500 {
                    jobs.submit(t * 1000 + i, run).unwrap();
                }
            });
        }
    });
    let mut ran = ran.into_inner().unwrap();
    ran.sort_unstable();
    let expected: Vec<usize> = (0..4)
        .flat_map(|t| (0..500).map(move |i| t * 1000 + i))
        .collect();
    assert_eq!(ran, expected);
    assert_eq!(most.load(Ordering::SeqCst), 1);
}

#[test]
fn a_job_submitted_while_another_runs_is_left_to_that_thread() {
    let jobs = OneAtATime::new();
    let (started, finish) = (Barrier::new(2), Barrier::new(2));
    let ran = Mutex::new(Vec::new());
    let run = |job: &'static str| {
        if job == "first" {
            started.wait();
            finish.wait();
        }
        ran.lock().unwrap().push((job, std::thread::current().id()));
        Ok::<(), ()>(())
    };
    let first = std::thread::scope(|s| {
        let first = s.spawn(|| {
            jobs.submit("first", run).unwrap();
            std::thread::current().id()
        });
        started.wait();
        // Returns at once: waiting here would never end, the first job
        // waits for this thread at `finish`.
        jobs.submit("second", run).unwrap();
        // Asserted after `finish`: a failed assertion here would leave the
        // first job waiting for ever.
        let ran_meanwhile = ran.lock().unwrap().len();
        finish.wait();
        assert_eq!(ran_meanwhile, 0);
        first.join().unwrap()
    });
    assert_eq!(
        ran.into_inner().unwrap(),
        [("first", first), ("second", first)]
    );
}

#[test]
fn a_failing_job_returns_its_error_and_later_jobs_run() {
    let jobs = OneAtATime::new();
    let run = |job: u32| if job == 1 { Err(job) } else { Ok(()) };
    assert_eq!(jobs.submit(1, run), Err(1));
    assert_eq!(jobs.submit(2, run), Ok(()));
}
