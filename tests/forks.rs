//! Fair forks (`Game::fork`) and cheap clones (`Game::try_clone`): a fork's dice are its
//! own, a seat's fork deals the cards that seat cannot see again, and nothing done on a
//! fork or a clone reaches the game they came from, though they share its loaded rules.

use catan_engine::bot::RandomBot;
use catan_engine::state::GameState;
use catan_engine::{Game, Header};

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
