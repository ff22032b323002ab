//! Run a blocking job per item with at most `limit` of them in flight: how the update engine keeps
//! LLM requests within `llm.concurrency`. Plain scoped threads pulling from a shared index — the jobs
//! spend their time waiting on the network, so they must not occupy rayon's CPU workers.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// `job` applied to every item, at most `limit` at a time; results in item order.
pub fn map<T: Sync, R: Send>(items: &[T], limit: usize, job: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    let workers = limit.clamp(1, items.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(index) else {
                    break;
                };
                let result = job(item);
                if let Ok(mut results) = results.lock() {
                    results[index] = Some(result);
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .into_iter()
        .flatten()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn never_more_than_the_limit_in_flight_and_order_is_kept() {
        let in_flight = AtomicUsize::new(0);
        let peak = AtomicUsize::new(0);
        let items: Vec<usize> = (0..24).collect();
        let out = map(&items, 3, |n| {
            let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
            peak.fetch_max(now, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(5));
            in_flight.fetch_sub(1, Ordering::SeqCst);
            n * 2
        });
        assert_eq!(out, items.iter().map(|n| n * 2).collect::<Vec<_>>());
        assert_eq!(peak.load(Ordering::SeqCst), 3);
    }

    #[test]
    fn no_items_no_threads() {
        let out: Vec<u8> = map(&[] as &[u8], 4, |_| unreachable!());
        assert!(out.is_empty());
    }
}
