//! Fair forks (`Game::fork`) and cheap clones (`Game::try_clone`): a fork's dice are its
//! own, a seat's fork deals the cards that seat cannot see again, and nothing done on a
//! fork or a clone reaches the game they came from, though they share its loaded rules.
//! A restored snapshot is exactly the position put aside, and a determinization deals as
//! it always did, however cheaply the copies are made.

use catan_engine::bot::determinize::determinize_view;
use catan_engine::bot::{Bot, BotKind, Budget, RandomBot};
use catan_engine::spec::{Spec, Visibility};
use catan_engine::state::{GameState, Zone};
use catan_engine::{Game, Header};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn game(seed: u64) -> Game {
    Game::new(Header { variants: vec!["base".into()], players: 4, seed, options: vec![], sandbox: false })
        .expect("base loads")
}

/// Plays random actions until `stop` holds (at most 3000).
fn play_until(g: &mut Game, bot: &mut RandomBot, stop: impl Fn(&Game) -> bool) {
    for _ in 0..3000 {
        if stop(g) || g.winner().is_some() {
            return;
        }
        let seat = g.to_act().expect("a seat to act");
        let a = bot.choose(g, seat).expect("a draw").expect("a legal action");
        g.perform(seat, &a).expect("a legal action plays");
    }
    panic!("the position looked for never came");
}

fn may_roll(g: &Game) -> bool {
    g.to_act().is_ok_and(|s| g.legal_actions(s).is_ok_and(|l| l.iter().any(|a| a.name == "roll")))
}

/// The draws of the roll the seat to act makes now.
fn roll(g: &mut Game) -> Vec<u32> {
    let seat = g.to_act().expect("a seat to act");
    g.act(seat, "roll").expect("the roll is legal");
    g.log().last().expect("logged").draws.clone()
}

#[test]
fn a_fork_never_shows_the_real_next_roll_where_a_clone_does() {
    for seed in 1..=4 {
        let mut g = game(seed);
        let mut bot = RandomBot::new(seed);
        // Past the set-up, at a roll.
        play_until(&mut g, &mut bot, |g| g.state().turn > 2 && may_roll(g));
        let mut clone = g.try_clone().expect("a clone");
        let forks: Vec<Vec<u32>> = (0..8)
            .map(|i| {
                let seat = if i % 2 == 0 { None } else { Some(i % 4) };
                roll(&mut g.fork(seat, 100 * seed + i as u64).expect("a fork"))
            })
            .collect();
        let cloned = roll(&mut clone);
        let real = roll(&mut g);
        assert_eq!(cloned, real, "a clone keeps the game's generator (seed {seed})");
        let same = forks.iter().filter(|f| **f == real).count();
        assert!(same <= 2, "seed {seed}: {same} of 8 forks rolled the real {real:?}: {forks:?}");
        assert!(forks.windows(2).any(|w| w[0] != w[1]), "forks of different seeds roll alike: {forks:?}");
    }
}

/// Each seat's hand, card by card.
fn hands(g: &Game) -> Vec<Vec<usize>> {
    let spec = g.spec().clone();
    let hand = spec.zone("hand").expect("base has hands");
    let st = g.state();
    (0..st.players.len())
        .map(|p| (0..spec.cards.len()).map(|k| st.zone(Some(p), hand).map_or(0, |z| z.count(k))).collect())
        .collect()
}

#[test]
fn a_seats_fork_deals_the_others_hidden_cards_again_and_keeps_what_it_knows() {
    let mut g = game(7);
    let mut bot = RandomBot::new(7);
    // Two other seats holding cards of different kinds, so a deal can differ.
    play_until(&mut g, &mut bot, |g| {
        let h = hands(g);
        g.state().turn > 8 && h[1].iter().sum::<usize>() >= 2 && h[2].iter().sum::<usize>() >= 2 && h[1] != h[2]
    });
    let real = hands(&g);
    let seat = 0;
    let mut differs = 0;
    for seed in 0..12 {
        let f = g.fork(Some(seat), seed).expect("a fork");
        let dealt = hands(&f);
        assert_eq!(dealt[seat], real[seat], "the seat's own hand is what it knows");
        for p in 1..4 {
            assert_eq!(dealt[p].iter().sum::<usize>(), real[p].iter().sum::<usize>(), "seat {p}'s hand size is public");
        }
        // The cards the seat cannot see are conserved as a whole.
        let pool = |h: &Vec<Vec<usize>>| -> Vec<usize> {
            (0..h[0].len()).map(|k| (1..4).map(|p| h[p][k]).sum::<usize>()).collect()
        };
        let bank = |g: &Game| {
            let spec = g.spec().clone();
            let z = spec.zone("bank").expect("base has a bank");
            g.state().zones[z].clone()
        };
        assert_eq!(pool(&dealt), pool(&real), "the others' cards come from the same pool");
        assert!(bank(&f) == bank(&g), "the bank is public");
        if dealt[1..] != real[1..] {
            differs += 1;
        }
        // The referee's fork keeps every hand.
        assert_eq!(hands(&g.fork(None, seed).expect("a fork")), real);
    }
    assert!(differs >= 4, "only {differs} of 12 forks dealt the others' cards otherwise");
}

#[test]
fn nothing_done_on_a_fork_or_a_clone_reaches_the_game() {
    let mut g = game(3);
    let mut bot = RandomBot::new(3);
    play_until(&mut g, &mut bot, |g| g.state().turn > 4);
    let state: GameState = g.state().clone();
    let (log, msgs) = (g.log().to_vec(), g.messages().len());
    let mut fork = g.fork(Some(1), 9).expect("a fork");
    let mut clone = g.try_clone().expect("a clone");
    let mut other = RandomBot::new(11);
    // Interleaved: each puts its own state in place before it acts.
    for _ in 0..60 {
        for copy in [&mut fork, &mut clone] {
            if copy.winner().is_none() {
                let seat = copy.to_act().expect("a seat");
                let a = other.choose(copy, seat).expect("a draw").expect("an action");
                copy.perform(seat, &a).expect("it plays");
            }
        }
        // A refused action on a copy (rebuilt from its own checkpoint) changes nothing.
        let _ = fork.act(0, "city A1");
    }
    assert!(*g.state() == state, "the game's state is untouched");
    assert_eq!((g.log(), g.messages().len()), (&log[..], msgs));
    // And it goes on exactly as a game that never had copies: its save replays to it.
    let seat = g.to_act().expect("a seat");
    let a = bot.choose(&g, seat).expect("a draw").expect("an action");
    g.perform(seat, &a).expect("it plays");
    let (again, div) = Game::load_json(&g.save_json()).expect("it loads");
    assert!(div.is_none() && *again.state() == *g.state());
    // A clone dropped while its state is in place leaves the game whole.
    let mut c = g.try_clone().expect("a clone");
    c.act(c.to_act().expect("a seat"), "roll").ok();
    drop(c);
    assert!(g.legal_actions(g.to_act().expect("a seat")).is_ok());
}

#[test]
fn a_fork_undoes_its_own_actions_but_never_past_the_fork() {
    let mut g = game(5);
    let mut bot = RandomBot::new(5);
    play_until(&mut g, &mut bot, |g| g.state().turn > 3);
    let mut f = g.fork(None, 1).expect("a fork");
    assert!(f.is_fork() && !g.is_fork());
    assert!(f.log().is_empty() && f.messages().is_empty(), "a fork's log holds what is played on it");
    let start: GameState = f.state().clone();
    for _ in 0..5 {
        let seat = f.to_act().expect("a seat");
        let a = bot.choose(&f, seat).expect("a draw").expect("an action");
        f.perform(seat, &a).expect("it plays");
    }
    let after_two = {
        let mut h = f.try_clone().expect("a clone");
        h.undo(3).expect("undo within the fork");
        let st: GameState = h.state().clone();
        st
    };
    f.undo(5).expect("back to the fork");
    assert!(*f.state() == start);
    assert!(f.undo(1).is_err(), "a fork cannot be undone past the point it was made");
    assert!(after_two != start);
}

#[test]
fn without_a_message_history_a_copy_copies_none_and_actions_still_say_theirs() {
    let mut g = game(6);
    let mut bot = RandomBot::new(6);
    play_until(&mut g, &mut bot, |g| g.state().turn > 2 && may_roll(g));
    assert!(!g.messages().is_empty());
    g.set_message_history(false);
    assert!(g.messages().is_empty());
    let mut c = g.try_clone().expect("a clone");
    let seat = c.to_act().expect("a seat");
    let said = c.act(seat, "roll").expect("the roll");
    assert!(!said.messages.is_empty() && c.messages().is_empty());
    assert_eq!(c.log().len(), g.log().len() + 1, "a clone keeps the log");
}

/// Dice forced by a sandbox edit are the game's next roll: a fork forgets them (as a
/// protocol fork does), a clone keeps them.
#[test]
fn a_fork_forgets_the_dice_a_sandbox_edit_forced() {
    let mut g =
        Game::new(Header { variants: vec!["base".into()], players: 4, seed: 3, options: vec![], sandbox: true })
            .expect("base loads");
    let mut bot = RandomBot::new(3);
    play_until(&mut g, &mut bot, may_roll);
    let seat = g.to_act().expect("a seat to act");
    g.sandbox(seat, "dice 6 6").expect("a sandbox game takes forced dice");
    let clone = g.try_clone().expect("a clone");
    assert!(!clone.state().forced_dice.is_empty(), "a clone keeps the forced dice");
    let fork = g.fork(None, 1).expect("a fork");
    assert!(fork.state().forced_dice.is_empty(), "a fork must not see the game's forced dice");
}

// Cheap forks (issue 33): a state's copies share its parts until one of them writes
// (`state::Shared`), and a determinization deals in reused buffers, writing only the
// zones it deals other cards. Neither may change what a fork is.

/// A base game (random board, set-up played) or a Rivals game, `actions` random actions in.
fn position(variant: &str, seed: u64, actions: usize) -> Game {
    let (players, options) = match variant {
        "base" => (4, vec![("board".into(), "random".into()), ("starting_pieces".into(), "false".into())]),
        _ => (2, vec![]),
    };
    let header = Header { variants: vec![variant.into()], players, seed, options, sandbox: false };
    let mut g = Game::new(header).expect("the variant loads");
    let mut bot = RandomBot::new(seed);
    for _ in 0..actions {
        if g.winner().is_some() {
            break;
        }
        let seat = g.to_act().expect("a seat to act");
        let a = bot.choose(&g, seat).expect("a draw").expect("a legal action");
        g.perform(seat, &a).expect("a legal action plays");
    }
    g
}

/// Everything a search reads of a position: the whole state as saved (`state --json`:
/// the board's shape included, which `GameState`'s `==` leaves out), whose turn, every
/// seat's legal actions, the evaluation and the save.
fn everything(g: &Game) -> (String, usize, Vec<String>, Vec<f64>, String) {
    let seat = g.to_act().expect("a seat to act");
    let legal = (0..g.header().players)
        .flat_map(|s| g.legal_actions(s).expect("a listing").into_iter().map(move |a| format!("{s}: {a:?}")))
        .collect();
    let state = serde_json::to_string(&*g.state()).expect("the state serializes");
    (state, seat, legal, g.evaluate().expect("an evaluation"), g.save_json())
}

#[test]
fn a_restore_puts_back_exactly_the_position_put_aside_however_often() {
    for (variant, seed) in [("base", 1), ("base", 2), ("rivals", 3), ("rivals", 4)] {
        let mut g = position(variant, seed, 60);
        let before = everything(&g);
        let kept: GameState = g.state().clone();
        let snap = g.snapshot();
        let mut bot = RandomBot::new(100 + seed);
        for round in 0..6 {
            // Many actions on the live state: each write copies a part the snapshot shares.
            for _ in 0..40 {
                if g.winner().is_some() {
                    break;
                }
                let seat = g.to_act().expect("a seat to act");
                let a = bot.choose(&g, seat).expect("a draw").expect("a legal action");
                g.perform(seat, &a).expect("a legal action plays");
            }
            assert!(*g.state() != kept, "{variant}: 40 random actions changed nothing");
            // Nothing written on the live state reached the snapshot's copy.
            let snapped = serde_json::to_string(snap.state()).expect("the state serializes");
            assert_eq!(snapped, before.0, "{variant} round {round}: the snapshot changed under the game");
            g.restore(&snap);
            assert!(*g.state() == kept, "{variant} round {round}: the restored state differs");
            assert_eq!(everything(&g), before, "{variant} round {round}: the restored position reads otherwise");
        }
        // After the forks, the game goes on as one that never forked: its save replays to it.
        for _ in 0..30 {
            if g.winner().is_some() {
                break;
            }
            let seat = g.to_act().expect("a seat to act");
            let a = bot.choose(&g, seat).expect("a draw").expect("a legal action");
            g.perform(seat, &a).expect("a legal action plays");
        }
        let (again, div) = Game::load_json(&g.save_json()).expect("the save loads");
        assert!(div.is_none(), "{variant}: the save replays");
        assert_eq!(
            serde_json::to_string(&*again.state()).expect("serializes"),
            serde_json::to_string(&*g.state()).expect("serializes"),
            "{variant}: the forked game's state is its save's"
        );
    }
}

#[test]
fn a_snapshot_since_a_position_puts_back_the_line_played_from_it_with_its_log() {
    // `Game::snapshot_since`: what the bots keep of the best of several tries, put back
    // instead of played again. It must read as the line played: state, log, messages,
    // legal actions, evaluation and save, though other lines were tried from the base
    // after it was taken.
    for (variant, seed) in [("base", 6), ("rivals", 7)] {
        let mut g = position(variant, seed, 50);
        g.set_message_history(true);
        let base = g.snapshot();
        let mut bot = RandomBot::new(200 + seed);
        let mut line = |g: &mut Game, n: usize| {
            for _ in 0..n {
                if g.winner().is_some() {
                    break;
                }
                let seat = g.to_act().expect("a seat to act");
                let a = bot.choose(g, seat).expect("a draw").expect("a legal action");
                g.perform(seat, &a).expect("a legal action plays");
            }
        };
        line(&mut g, 12);
        let played = (everything(&g), g.log().to_vec(), g.messages().to_vec());
        let after = g.snapshot_since(&base);
        // Other lines from the base, shorter and longer, then the kept one put back.
        for n in [3, 20] {
            g.restore(&base);
            line(&mut g, n);
            g.restore(&after);
            let now = (everything(&g), g.log().to_vec(), g.messages().to_vec());
            assert!(now == played, "{variant}: put back after a line of {n} actions, the position reads otherwise");
        }
        // And the game goes on from the kept line as one that played it: its save replays.
        g.restore(&after);
        line(&mut g, 10);
        let (again, div) = Game::load_json(&g.save_json()).expect("the save loads");
        assert!(div.is_none(), "{variant}: the save replays");
        assert!(*again.state() == *g.state(), "{variant}: the kept line's state is its save's");
    }
}

#[test]
fn a_kept_value_is_not_served_stale_after_a_restore() {
    // `g:cached` and the kept rules key on the engine's stamps, which are never issued
    // twice: a state put back comes with the stamps it was taken with, so what was kept
    // from the state it replaces is stale and what was kept of it is good (the slot grids'
    // stamps likewise: tests/victory_and_production.rs,
    // values_kept_by_a_seats_grids_survive_a_restore_...).
    let mut g = position("base", 5, 80);
    let snap = g.snapshot();
    let first = g.evaluate().expect("an evaluation");
    let mut bot = RandomBot::new(5);
    let mut seen_other = false;
    for round in 0..30 {
        // A few actions from the snapshot, a different walk each round.
        for _ in 0..1 + round % 4 {
            let seat = g.to_act().expect("a seat to act");
            let a = bot.choose(&g, seat).expect("a draw").expect("a legal action");
            g.perform(seat, &a).expect("a legal action plays");
        }
        let now = g.evaluate().expect("an evaluation");
        seen_other |= now != first;
        // The evaluation of a fresh game of the same position (nothing kept) agrees.
        let (fresh, _) = Game::load_json(&g.save_json()).expect("the save loads");
        assert_eq!(now, fresh.evaluate().expect("an evaluation"), "kept values served stale");
        g.restore(&snap);
        assert_eq!(g.evaluate().expect("an evaluation"), first, "a stale evaluation after a restore");
    }
    assert!(seen_other, "the walk never changed the evaluation");
}

#[test]
fn a_restored_position_finds_what_the_rules_kept_of_it() {
    // A snapshot carries the engine's stamps (`script::Stamps`): put back, its position
    // finds each seat's evaluation kept (the prelude's seat terms), where a position new
    // to the engine finds none; a determinization's stamps are its own from its first
    // restore on; and another game's snapshot brings none, though its stamps may be the
    // very numbers this game issued. Counted by `kept_runs` (debug builds compute a kept
    // value again all the same, to check it).
    for variant in ["base", "rivals"] {
        let mut g = position(variant, 7, 80);
        let players = g.header().players as u64;
        // What an evaluation keeps of a position new to the engine (values asked twice
        // within it): the same position in another game.
        let mut other = position(variant, 7, 80);
        let kept = other.kept_runs();
        let first = other.evaluate().expect("an evaluation");
        let fresh = other.kept_runs() - kept;
        let kept_by = |g: &mut Game, snap: &catan_engine::engine::Snapshot| {
            let kept = g.kept_runs();
            g.restore(snap);
            let v = g.evaluate().expect("an evaluation");
            (v, g.kept_runs() - kept)
        };
        let snap = g.snapshot();
        assert_eq!(g.evaluate().expect("an evaluation"), first, "{variant}");
        let seat = g.to_act().expect("a seat to act");
        let mut bot = RandomBot::new(7);
        let a = bot.choose(&g, seat).expect("a draw").expect("a legal action");
        g.perform(seat, &a).expect("a legal action plays");
        let (v, k) = kept_by(&mut g, &snap);
        assert_eq!(v, first, "{variant}");
        assert!(k >= fresh + players, "{variant}: the position put back computed its evaluation again ({k} kept)");
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let det = snap.with_state(catan_engine::bot::determinize::determinize(g.spec(), snap.state(), seat, &mut rng));
        let (dealt, k) = kept_by(&mut g, &det);
        assert!(k < fresh + players, "{variant}: a determinization's first restore found values kept ({k})");
        g.restore(&snap);
        let (v, k) = kept_by(&mut g, &det);
        assert_eq!(v, dealt, "{variant}");
        assert!(k >= fresh + players, "{variant}: a determinization put back again computed its evaluation again");
        // Another game's snapshot: the same stamps issued (it played the same actions), none
        // of them put back.
        let (v, k) = kept_by(&mut other, &snap);
        assert_eq!(v, first, "{variant}");
        assert!(k < fresh + players, "{variant}: a snapshot of another game had its stamps put back ({k} kept)");
    }
}

/// Whether `seat` sees which cards zone `z` of `owner` holds (the rule of
/// `bot::determinize`, written out again here as the reference).
fn sees(spec: &Spec, z: usize, owner: Option<usize>, seat: Option<usize>) -> bool {
    match (spec.zones[z].visibility, seat) {
        (Visibility::Public, _) => true,
        (Visibility::Hidden, _) => false,
        (Visibility::Top, Some(_)) => false,
        (Visibility::Count | Visibility::Owner, Some(_)) => owner == seat,
        (Visibility::Top | Visibility::Count | Visibility::Owner, None) => true,
    }
}

/// The determinization as it was written before it dealt in place: a copy of the state,
/// a pool per category sorted then shuffled, dealt zone by zone. `determinize` must deal
/// exactly this (the bots' games depend on every card it deals).
fn reference_determinize(spec: &Spec, state: &GameState, seat: Option<usize>, rng: &mut ChaCha8Rng) -> GameState {
    let mut st = state.clone();
    let mut names: Vec<&str> = vec![];
    let cat: Vec<usize> = spec
        .cards
        .iter()
        .map(|c| match names.iter().position(|n| *n == c.category) {
            Some(i) => i,
            None => {
                names.push(&c.category);
                names.len() - 1
            }
        })
        .collect();
    let ncat = names.len();
    let mut zones = vec![];
    for z in 0..spec.zones.len() {
        if spec.zones[z].per_player {
            zones.extend((0..st.players.len()).filter(|&q| !sees(spec, z, Some(q), seat)).map(|q| (Some(q), z)));
        } else if !sees(spec, z, None, seat) {
            zones.push((None, z));
        }
    }
    let mut pool: Vec<Vec<u16>> = vec![vec![]; ncat];
    for &(owner, z) in &zones {
        match st.zone(owner, z) {
            Some(Zone::Counts(c)) => {
                for (k, &n) in c.iter().enumerate() {
                    pool[cat[k]].extend(std::iter::repeat_n(k as u16, n as usize));
                }
            }
            Some(Zone::Stack(s)) => s.iter().for_each(|&k| pool[cat[k as usize]].push(k)),
            None => {}
        }
    }
    for p in &mut pool {
        p.sort_unstable();
        p.shuffle(rng);
    }
    for &(owner, z) in &zones {
        match st.zone_mut(owner, z) {
            Some(Zone::Counts(c)) => {
                let mut per_cat = vec![0usize; ncat];
                for (k, n) in c.iter_mut().enumerate() {
                    per_cat[cat[k]] += *n as usize;
                    *n = 0;
                }
                for (ci, n) in per_cat.into_iter().enumerate() {
                    for _ in 0..n {
                        if let Some(k) = pool[ci].pop() {
                            c[k as usize] += 1;
                        }
                    }
                }
            }
            Some(Zone::Stack(s)) => {
                for k in s.iter_mut() {
                    if let Some(new) = pool[cat[*k as usize]].pop() {
                        *k = new;
                    }
                }
            }
            None => {}
        }
    }
    st.rng = ChaCha8Rng::seed_from_u64(rng.random());
    st
}

/// Each zone's size and its count of each category of card, by (owner, zone).
fn zone_shapes(spec: &Spec, st: &GameState) -> Vec<(usize, Vec<usize>)> {
    let mut names: Vec<&str> = spec.cards.iter().map(|c| c.category.as_str()).collect();
    names.sort();
    names.dedup();
    let owners = std::iter::once(None).chain((0..st.players.len()).map(Some));
    owners
        .flat_map(|o| (0..spec.zones.len()).map(move |z| (o, z)))
        .filter_map(|(o, z)| st.zone(o, z))
        .map(|zone| {
            let per = names
                .iter()
                .map(|n| (0..spec.cards.len()).filter(|&k| spec.cards[k].category == *n).map(|k| zone.count(k)).sum())
                .collect();
            (zone.total(), per)
        })
        .collect()
}

#[test]
fn a_determinization_deals_as_before_and_keeps_every_zones_size_and_categories() {
    for (variant, seed) in [("base", 1), ("base", 6), ("rivals", 2), ("rivals", 7)] {
        let g = position(variant, seed, 90);
        let spec = g.spec().clone();
        let st: GameState = g.state().clone();
        let saved = serde_json::to_string(&st).expect("serializes");
        let mut differs = 0;
        let observers = std::iter::once(None).chain((0..st.players.len()).map(Some));
        for (i, seat) in observers.enumerate() {
            for round in 0..20u64 {
                let rng_seed = 1000 * i as u64 + round;
                let mut rng = ChaCha8Rng::seed_from_u64(rng_seed);
                let mut again = ChaCha8Rng::seed_from_u64(rng_seed);
                let dealt = determinize_view(&spec, &st, seat, &mut rng);
                let want = reference_determinize(&spec, &st, seat, &mut again);
                assert_eq!(
                    serde_json::to_string(&dealt).expect("serializes"),
                    serde_json::to_string(&want).expect("serializes"),
                    "{variant}, seat {seat:?}, seed {rng_seed}: another deal than before"
                );
                assert_eq!(rng, again, "the same random numbers spent");
                assert_eq!(zone_shapes(&spec, &dealt), zone_shapes(&spec, &st), "{variant}: sizes or categories");
                differs += usize::from(dealt != st);
                // What the seat sees is what it saw.
                for z in 0..spec.zones.len() {
                    for o in std::iter::once(None).chain((0..st.players.len()).map(Some)) {
                        if sees(&spec, z, o, seat) {
                            assert!(dealt.zone(o, z) == st.zone(o, z), "{variant}: a zone {seat:?} sees was dealt");
                        }
                    }
                }
            }
        }
        // The deals wrote copies of their own: the state they were dealt from is intact.
        assert_eq!(serde_json::to_string(&st).expect("serializes"), saved, "{variant}: a deal wrote the source");
        assert!(*g.state() == st);
        assert!(differs > 20, "{variant}: only {differs} deals differ from the position");
    }
}

#[test]
fn a_bots_search_leaves_the_game_as_it_was() {
    // Planner and MCTS fork and determinize hundreds of times a decision.
    for (variant, seed) in [("base", 8), ("rivals", 9)] {
        let mut g = position(variant, seed, 70);
        let before = everything(&g);
        let seat = g.to_act().expect("a seat to act");
        for kind in [BotKind::Planner, BotKind::Mcts] {
            let mut bot = Bot::new(kind, seed, Budget { playouts: 40, ..Budget::default() });
            bot.choose(&mut g, seat).expect("a decision");
            assert_eq!(everything(&g), before, "{variant}: {} left the game otherwise", kind.name());
        }
    }
}
