//! Games played on every core: workers take the next game's index from a shared counter,
//! and the results come back in index order, so a run does not depend on its workers.

use crate::engine::{Game, GameError, Header};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// Plays `n` games of `header`'s stack on `jobs` workers: each worker makes its game and
/// `init`s its state once, then `each(game, state, i)` for the indices it takes. The
/// results come back by index, so what a run gives does not depend on the workers;
/// `done(k)` after each of them. Every worker sets up with the run's seed first: if that
/// fails, it fails alike for all of them.
pub(crate) fn in_parallel<W, T: Send>(
    header: &Header,
    jobs: usize,
    n: usize,
    init: impl Fn(&mut Game) -> W + Sync,
    each: impl Fn(&mut Game, &mut W, usize) -> Result<T, GameError> + Sync,
    mut done: impl FnMut(usize),
) -> Result<Vec<T>, GameError> {
    let mut out: Vec<Option<T>> = (0..n).map(|_| None).collect();
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, n.max(1)) {
            let (tx, next, init, each) = (tx.clone(), &next, &init, &each);
            scope.spawn(move || {
                let mut game = match Game::new(header.clone()) {
                    Ok(g) => g,
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                };
                // A worker's games read no message: kept none, measured (the same games).
                game.set_quiet(true);
                let mut state = init(&mut game);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    if tx.send(each(&mut game, &mut state, i).map(|t| (i, t))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut k = 0;
        for msg in rx {
            match msg {
                Ok((i, t)) => {
                    out[i] = Some(t);
                    k += 1;
                    done(k);
                }
                Err(e) => failure = Some(e),
            }
        }
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(out.into_iter().flatten().collect()),
    }
}
