//! `catan`: a thin shell over the catan-engine library.

use catan_engine::bot::BotKind;
use catan_engine::engine::Header;
use catan_engine::repl::{jsonl_failure, last_autosave, read_save, run_interactive, run_script, ReplConfig};
use catan_engine::{check, plot, protocol, script, sim};
use clap::{Parser, Subcommand};
use std::io::IsTerminal;
use std::process::ExitCode;

// Lua allocates and frees many small tables an action; mimalloc's thread-local free lists
// serve them faster than the system allocator (`src/README.md`, "Performance").
#[global_allocator]
static ALLOCATOR: catan_engine::alloc::Allocator = catan_engine::alloc::Allocator;

#[derive(Parser)]
#[command(name = "catan", version, about = "A rules engine for the Catan family of games: play, simulate, mod.")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// How `catan tune` plays and fits.
#[derive(clap::Args, Clone)]
struct TuneArgs {
    /// Games of self-play in all (the same seed and games give the same weights)
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Rounds the games are split into (each plays with the last round's weights)
    #[arg(long, default_value_t = 4)]
    rounds: usize,
    /// Stop after the round in progress once this many minutes have passed, and start no
    /// match of the search by play past them (the weights then depend on the machine's
    /// speed)
    #[arg(long)]
    minutes: Option<f64>,
    /// Games played at once (default: every core)
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// Start from victory points alone, not from the stack's present evaluation
    #[arg(long)]
    from_scratch: bool,
    /// Leave the variant's hand-written `evaluate` out of the terms: generic and named
    /// features only
    #[arg(long)]
    without_evaluate: bool,
    /// Learn from this bot's choices (distillation: `mcts` searching with the weights
    /// so far), the winners setting only the scale; slower, about 0.1 s a label
    #[arg(long, value_name = "KIND", value_parser = BotKind::parse)]
    teacher: Option<BotKind>,
    /// After the fit, this many games of a search by play: matches on paired seeds
    /// that move the declared weights (points, the variant's named features,
    /// `evaluate`) one at a time and keep a move that wins
    #[arg(long, value_name = "N", default_value_t = 0)]
    play_games: usize,
    /// The weights file to write (default: the topmost variant's, beside it)
    #[arg(long, value_name = "FILE")]
    out: Option<String>,
}

#[derive(clap::Args, Clone)]
struct GameArgs {
    /// Variant stack: names and paths joined by '+', e.g. base, base+helpers,
    /// ./mods/house.lua, base+./mods/house.lua (default: base; search path: `catan variants --help`)
    #[arg(long)]
    variant: Option<String>,
    /// Number of players (default: the variant's own default)
    #[arg(long)]
    players: Option<usize>,
    /// Seed for every random event (default: from the clock, printed)
    #[arg(long)]
    seed: Option<u64>,
    /// Set an option, KEY=VALUE (repeatable); see `catan variants`
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// A TOML file of options (KEY = VALUE lines); --option wins over it
    #[arg(long)]
    options_file: Option<String>,
}

#[derive(Subcommand)]
enum Command {
    /// Play in the terminal: hot-seat and/or against bots
    Play {
        #[command(flatten)]
        game: GameArgs,
        /// Seats played by bots: "2,3,4", colours "blue,white", "all" or "none", each
        /// with a kind if wanted: "blue=mcts,white=greedy,orange=random" (default kind:
        /// mcts, the strongest; default seats: every seat but the first); a kind alone
        /// ("random") plays every seat but the first; a kind may be a program's name from
        /// --bot-cmd NAME=COMMAND ("blue=ext"), or name its weights as `catan sim --bots`
        /// does ("blue=planner@tuned.toml", "planner@none")
        #[arg(long)]
        bots: Option<String>,
        #[command(flatten)]
        budget: BudgetArgs,
        #[command(flatten)]
        bot_cmd: BotCmdArgs,
        /// Script mode: exit with status 2 at the first rejected command
        #[arg(long)]
        strict: bool,
        /// Allow the sandbox commands dice, give and place (logged)
        #[arg(long)]
        sandbox: bool,
        /// Load a saved game, or a game of `catan sim --out FILE.jsonl` (pick it with --game
        /// or FILE.jsonl#N) to step through it with `undo`
        #[arg(long, conflicts_with = "resume")]
        load: Option<String>,
        /// With --load of sim rows: the game to load, its index N (the row's `game`), or
        /// SIDE:N in a comparison's rows, VALUE:N in a sweep's (B:3, 8:3)
        #[arg(long = "game", value_name = "N", requires = "load")]
        pick: Option<String>,
        /// Continue the last autosaved game (`quit` and `load` autosave unsaved progress)
        #[arg(long)]
        resume: bool,
        /// Never use colours
        #[arg(long)]
        no_color: bool,
        /// The bots make no trade offers of their own (they still answer yours); `offers
        /// on` or `offers off` in the game switches it
        #[arg(long)]
        no_offers: bool,
        /// For modders: rule refusals with the variant and file:line that refused, and
        /// the test-only actions in `help`
        #[arg(long)]
        debug: bool,
        /// For modders: reload the rules when a file of the stack changes on disk (as
        /// `reload` does: the game replayed on them), before the next command
        #[arg(long)]
        watch: bool,
        /// Script mode for programs: answer each command line with one JSON object
        /// (ok, error, messages, data, version, to_act)
        #[arg(long)]
        jsonl: bool,
    },
    /// Play in a browser: serves the board on 127.0.0.1 and prints a link per human seat
    /// (each with its own token), one for the host's hot-seat page and one for spectators
    /// (docs/web.md)
    #[command(
        after_help = "Examples:\n  catan web                          # you against 3 bots\n  catan web --bots none              # hot seat, or friends with per-seat links\n  catan web --bots 3,4 --host 0.0.0.0 --port 8080"
    )]
    Web {
        #[command(flatten)]
        game: GameArgs,
        /// Seats played by bots, as `catan play --bots` (default: every seat but the first)
        #[arg(long)]
        bots: Option<String>,
        #[command(flatten)]
        budget: BudgetArgs,
        #[command(flatten)]
        bot_cmd: BotCmdArgs,
        /// Load a saved game, or a game of `catan sim --out FILE.jsonl` (FILE.jsonl#N), and
        /// play on from it
        #[arg(long)]
        load: Option<String>,
        /// The bots make no trade offers of their own (they still answer yours)
        #[arg(long)]
        no_offers: bool,
        /// The port to listen on (0: any free port, printed)
        #[arg(long, default_value_t = 0)]
        port: u16,
        /// The address to listen on. The default serves this machine only; 0.0.0.0 serves
        /// every network it is on (friends on other machines): anyone who gets a link
        /// plays or watches with it, over plain HTTP
        #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
        host: std::net::IpAddr,
        /// Milliseconds between two bots' actions, so that each shows before the next
        #[arg(long, value_name = "MS", default_value_t = 400)]
        bot_pace: u64,
        /// Watch a saved game, or a game of `catan sim --out FILE.jsonl` (FILE.jsonl#N),
        /// step by step as a spectator (a slider, back and forward, the log in sync)
        #[arg(long, value_name = "FILE", conflicts_with = "load")]
        watch: Option<String>,
    },
    /// Play many bot games and report wins per seat (with 95% intervals), game lengths and
    /// speed; compare two rule sets on the same seeds; write per-game rows and a plot
    Sim {
        #[command(flatten)]
        game: GameArgs,
        /// Number of games (per side with --compare)
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Print the report as JSON
        #[arg(long)]
        json: bool,
        /// Games played at once, one Lua state per worker (default: every core). Each game's
        /// seed is the run's seed plus its index, so the report is the same for any N
        #[arg(long, value_name = "N")]
        jobs: Option<usize>,
        /// Who plays: one kind in every seat, e.g. "greedy", or one bot per seat, e.g.
        /// "mcts,random,random,random", seated by --seats, with wins reported per kind
        /// (kinds: random, greedy, planner, mcts, or a program's name from --bot-cmd
        /// NAME=COMMAND: "mcts,ext,greedy,ext"; default: random in every seat)
        #[arg(long)]
        bots: Option<String>,
        /// How the --bots lineup is seated from game to game: rotate (one seat further
        /// each game), shuffle (a seeded random order each game) or fixed
        #[arg(long, default_value = "rotate")]
        seats: String,
        /// Compare two rule sets on the same seeds: each side is a variant stack, options
        /// after a colon, or both: "base" "base+./mods/house.lua" ":victory_points=8"
        /// "base+helpers:board=random,victory_points=12" (an empty stack is --variant's)
        #[arg(long, num_args = 2, value_names = ["A", "B"])]
        compare: Option<Vec<String>>,
        /// Play the same games (--games, --seed, --bots) once for each value of one
        /// option and report them side by side: "victory_points=6..12" (whole numbers,
        /// both ends included) or "board=beginner,random"; --out rows carry a `sweep`
        /// column, --plot draws win rates and game length against the value
        #[arg(long, value_name = "OPTION=A..B|OPTION=V1,V2,...")]
        sweep: Option<String>,
        /// Write one row per game (seed, winner, points per seat, turns, actions, why it
        /// ended, metrics) to FILE: CSV, or JSON Lines if FILE ends in .jsonl or .json,
        /// each row with its game's save (`catan play --load FILE.jsonl --game N`)
        #[arg(long, value_name = "FILE")]
        out: Option<String>,
        /// Draw win rate by seat (95% intervals) and game lengths, A against B with
        /// --compare, against the value with --sweep: PNG if FILE ends in .png, else SVG
        #[arg(long, value_name = "FILE")]
        plot: Option<String>,
        /// Cut a game off, without a winner, after this many actions (reported with seeds)
        #[arg(long, default_value_t = sim::MAX_ACTIONS)]
        max_actions: usize,
        #[command(flatten)]
        budget: BudgetArgs,
        #[command(flatten)]
        bot_cmd: BotCmdArgs,
    },
    /// Learn the weights of the bots' evaluation of a stack by self-play: rounds of games
    /// of the simulation bot (planner) in every seat, each round fitting the weights that
    /// best foretell the winners and playing the next with them; writes them to the
    /// stack's weights file (NAME.weights.toml beside NAME.lua), which the stack then loads
    #[command(
        after_help = "Examples:\n  catan tune --variant base+./mods/house.lua --games 2000\n  catan tune --variant base --minutes 20 --from-scratch --out /tmp/base.weights.toml"
    )]
    Tune {
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        how: TuneArgs,
    },
    /// Answer JSON Lines requests on stdin, one JSON answer per line on stdout: start a
    /// game, list a seat's legal actions, act, view, save, load, undo (docs/protocol.md)
    #[command(
        after_help = "Example:\n  printf '{\"cmd\":\"new\",\"seed\":1}\\n{\"cmd\":\"legal\"}\\n{\"cmd\":\"act\",\"action\":\"roll\"}\\n' | catan serve"
    )]
    Serve,
    /// Check variant stacks without playing them by hand: load, validate the declarations
    /// and options, lint, and play seeded random-bot games with the engine's invariants
    /// checked after every action. Prints findings as file:line: message; exits 1 if any
    #[command(after_help = script::SEARCH_PATH_HELP)]
    Check {
        /// Variant stacks to check, e.g. base ./mods/house.lua base+helpers
        #[arg(required = true, value_name = "VARIANT")]
        variants: Vec<String>,
        /// Games to play per stack (0: load and lint only)
        #[arg(long, default_value_t = 4)]
        games: usize,
        /// Seed of the first game (game i is played with seed + i)
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Number of players (default: the variant's own default)
        #[arg(long)]
        players: Option<usize>,
        /// Set an option, KEY=VALUE (repeatable)
        #[arg(long = "option", value_name = "KEY=VALUE")]
        options: Vec<String>,
        /// A game still running after this many actions is a finding
        #[arg(long, default_value_t = catan_engine::sim::MAX_ACTIONS)]
        max_actions: usize,
        /// Print the reports as JSON
        #[arg(long)]
        json: bool,
    },
    /// Print the LuaLS type annotations of the script API (generated from docs/api.md), as
    /// kept in variants/types/catan.lua for editors
    Stubs,
    /// Run scenario files, a mod's tests: a set-up, commands as a player types them and
    /// expectations about what follows; the first unmet one is shown with the transcript
    /// up to it. Exits 1 if any fails
    Test {
        /// Scenario files, e.g. house.scenario tests/*.scenario
        #[arg(required = true, value_name = "FILE")]
        files: Vec<String>,
    },
    /// Start a mod: a folder NAME/ with NAME.lua extending a variant, its first scenario
    /// (NAME.scenario, for `catan test`) and the editor configuration of the script API
    New {
        /// The mod's name (letters, digits and _): it names the folder, the file and hooks
        name: String,
        /// The variant it extends
        #[arg(long, default_value = "base")]
        extends: String,
    },
    /// List the variants with their descriptions and options, or describe the ones named
    /// (names or paths, e.g. `catan variants ./mods/house.lua`)
    #[command(after_help = script::SEARCH_PATH_HELP)]
    Variants {
        /// Variants to describe (default: every one found)
        #[arg(value_name = "VARIANT")]
        variants: Vec<String>,
    },
}

/// External bots: programs that play seats over the JSON Lines protocol.
#[derive(clap::Args, Clone)]
struct BotCmdArgs {
    /// A program that plays seats over the JSON Lines protocol (docs/protocol.md), run
    /// through the shell, one process per seat. "NAME=COMMAND": the program seated wherever
    /// --bots names it, in sim rotated like the others (each game starts its own
    /// processes), e.g. sim --bots mcts,ext,greedy,ext --bot-cmd "ext=python3 bot.py", or
    /// play --bots blue=ext,white=mcts --bot-cmd "ext=python3 bot.py". Otherwise "[SEATS=]COMMAND", SEATS as play's --bots names them ("2",
    /// "blue,white", "all"): those seats (default: every seat but the first in play,
    /// every seat in sim), fixed in sim, random bots in the others. Repeatable; a program
    /// that crashes, times out or answers an illegal action is an error (in sim: the game
    /// counted as an error), not a hang
    #[arg(long = "bot-cmd", value_name = "[NAME=|SEATS=]COMMAND")]
    bot_cmd: Vec<String>,
    /// Seconds an external bot may take over one decision
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    bot_timeout: f64,
}

impl BotCmdArgs {
    fn timeout(&self) -> Result<std::time::Duration, String> {
        std::time::Duration::try_from_secs_f64(self.bot_timeout)
            .map_err(|_| format!("--bot-timeout takes a number of seconds, not {}", self.bot_timeout))
    }
}

#[derive(clap::Args, Clone)]
struct BudgetArgs {
    /// Search bots: playouts per decision (deterministic: same seed, same game)
    #[arg(long)]
    playouts: Option<usize>,
    /// Search bots: at most this many milliseconds per decision (wall clock)
    #[arg(long)]
    think_ms: Option<u64>,
}

impl BudgetArgs {
    fn budget(&self) -> catan_engine::bot::Budget {
        let mut b = catan_engine::bot::Budget::default();
        if let Some(n) = self.playouts {
            b.playouts = n;
        }
        b.think_ms = self.think_ms;
        b
    }
}

fn options(args: &GameArgs) -> Result<Vec<(String, String)>, String> {
    catan_engine::engine::option_args(args.options_file.as_deref(), &args.options)
}

fn variant_stack(args: &GameArgs) -> Vec<String> {
    args.variant.as_deref().unwrap_or("base").split('+').map(|s| s.trim().to_string()).collect()
}

/// With `--load`, the save decides the variants, players, seed and options: a flag that
/// asks for something else is refused rather than silently ignored.
fn loaded_header(path: &str, args: &GameArgs) -> Result<Header, String> {
    let h = read_save(path)?.header;
    let mut clashes = vec![];
    if args.variant.is_some() && variant_stack(args) != h.variants {
        clashes.push(format!("--variant {} (the save is {})", variant_stack(args).join("+"), h.variants.join("+")));
    }
    if args.players.is_some_and(|p| p != h.players) {
        clashes.push(format!("--players (the save has {})", h.players));
    }
    if args.seed.is_some_and(|s| s != h.seed) {
        clashes.push(format!("--seed (the save has {})", h.seed));
    }
    let mut given = options(args)?;
    let mut saved = h.options.clone();
    given.sort();
    saved.sort();
    if !given.is_empty() && given != saved {
        clashes.push("--option/--options-file (the save has its own options)".into());
    }
    if !clashes.is_empty() {
        return Err(format!(
            "--load {path} replays the save with its own variants, players, seed and options; drop {}",
            clashes.join(", ")
        ));
    }
    Ok(h)
}

fn header(args: &GameArgs, sandbox: bool) -> Result<Header, String> {
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
    });
    Header::from_args(args.variant.as_deref().unwrap_or("base"), args.players, seed, options(args)?, sandbox)
}

/// What `catan variants` prints about one variant stack.
fn describe(name: &str, spec: &catan_engine::spec::Spec) -> String {
    let mut out = format!("{name}  (stack: {})\n  {}\n", spec.variants.join(" -> "), spec.description);
    out += &format!("  players: {}-{} (default {})\n", spec.min_players, spec.max_players, spec.default_players);
    // An option for player counts this stack cannot seat (the 5-6 player game's in a 3-4
    // player edition) is left out.
    let seated = |o: &&catan_engine::spec::OptionSpec| {
        o.players.is_none_or(|(min, max)| min <= spec.max_players && max >= spec.min_players)
    };
    for o in spec.options.iter().filter(seated) {
        let ty = match &o.kind {
            catan_engine::spec::OptionType::Bool => "bool".to_string(),
            catan_engine::spec::OptionType::Int { min, max } => format!("int {min}..{max}"),
            catan_engine::spec::OptionType::Choice(c) => c.join("|"),
            catan_engine::spec::OptionType::Text => "text".into(),
        };
        out += &format!("    {:<22} {:<26} default {:<10} {}\n", o.name, ty, o.default.to_string(), o.doc);
    }
    out
}

/// The bar `catan sim` shows on a terminal: games done, rate and time left.
fn progress_bar(total: usize, label: &str) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(total as u64);
    let style = indicatif::ProgressStyle::with_template(
        "{prefix} [{bar:30}] {pos}/{len} games  {per_sec}  {elapsed} elapsed, ETA {eta}",
    )
    .map(|s| s.progress_chars("=> "));
    if let Ok(style) = style {
        bar.set_style(style);
    }
    bar.set_prefix(label.to_string());
    Some(bar)
}

/// `catan tune`: self-play, the fit, the weights file written (its other entries kept).
fn run_tune(
    game: &GameArgs,
    TuneArgs { games, rounds, minutes, jobs, from_scratch, without_evaluate, teacher, play_games, out }: TuneArgs,
) -> Result<(), String> {
    let mut args = game.clone();
    args.seed = Some(args.seed.unwrap_or(1));
    let h = header(&args, false)?;
    let top = h.variants.last().cloned().unwrap_or_else(|| "base".into());
    let path = out.map(std::path::PathBuf::from).unwrap_or_else(|| catan_engine::bot::weights::file_for(&top));
    let cfg = catan_engine::tune::TuneConfig {
        header: h.clone(),
        games,
        rounds,
        seconds: minutes.map(|m| m * 60.0),
        jobs: jobs.unwrap_or_else(sim::default_jobs),
        from_scratch,
        without_evaluate,
        teacher,
        play_games,
    };
    let bar = progress_bar(games + play_games, "tune");
    // Where no bar can be drawn (a log, a pipe, CI), a line on stderr as each round starts
    // and at every twentieth of the games, so that an hour's run shows it is alive.
    let (start, mut said) = (std::time::Instant::now(), (0, usize::MAX));
    let rounds = rounds.max(1); // as tune counts them: `--rounds 0` plays one
    let report = catan_engine::tune::tune(&cfg, |done, total, round| {
        let stage =
            if round > rounds { "the search by play".to_string() } else { format!("round {round} of {rounds}") };
        match &bar {
            Some(b) => {
                b.set_position(done as u64);
                b.set_prefix(format!("tune, {stage}"));
            }
            None => {
                let twentieth = done * 20 / total.max(1);
                if round != said.0 || twentieth > said.1 {
                    said = (round, twentieth);
                    eprintln!("tune: {stage}, {done} of {total} games, {:.0} s", start.elapsed().as_secs_f64());
                }
            }
        }
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let report = report.map_err(|e| e.to_string())?;
    let mut tuned = report.tuned.clone();
    tuned.made = format!("{} ({:.0} s)", tuned.made, report.seconds);
    catan_engine::tune::write(&path, &tuned)?;
    println!(
        "tuned {} for {} players: {} games, {} positions, {:.0} s",
        tuned.stack, tuned.players, report.games, report.positions, report.seconds
    );
    for (i, r) in report.rounds.iter().enumerate() {
        println!(
            "  round {}: {} games ({} won); the weights it played with foretold its winners at {:.3} log-likelihood a position, top-scored {:.0}%{}",
            i + 1,
            r.games,
            r.won,
            r.log_likelihood,
            100.0 * r.top_share,
            r.ridge.map_or(String::new(), |g| format!("; refitted with ridge {g}, chosen on held-out games"))
        );
        if r.choices > 0 {
            println!(
                "    {} choices of the teacher; the weights ranked {:.0}% of them first",
                r.choices,
                100.0 * r.agreement
            );
        }
    }
    for st in &report.steps {
        println!(
            "  by play: {} {} -> {}: won {} of {} ({:.0}%; fair share {:.0}%){}",
            st.feature,
            st.from,
            st.to,
            st.wins,
            st.games,
            100.0 * st.wins as f64 / st.games as f64,
            100.0 / tuned.players as f64,
            if st.kept { ", kept" } else { "" }
        );
    }
    if report.rounds.iter().any(|r| r.choices > 0) {
        println!("  the final weights rank {:.0}% of the teacher's choices first", 100.0 * report.agreement);
    }
    println!("  {}", tuned.made);
    println!("wrote {} weights to {}", tuned.weights.len(), path.display());
    Ok(())
}

/// Says on stderr when the bots of a stack would play with weights tuned on other rules
/// (`catan tune`), so that a simulation never reads a mismatch silently.
fn weights_warning(h: &Header, bots_evaluate: bool) {
    if !bots_evaluate {
        return;
    }
    if let Ok(game) = catan_engine::Game::new(Header { seed: 1, ..h.clone() }) {
        if let Some(w) = &game.tuned().1 {
            eprintln!("warning: {w}");
        }
    }
}

/// One side of a run: its stack, players and options, played with the bar shown.
fn play_side(
    h: &Header,
    games: usize,
    lineup: &sim::Lineup,
    jobs: usize,
    label: &str,
) -> Result<sim::SimReport, String> {
    weights_warning(
        h,
        lineup.bots.iter().any(|b| b.bot().is_some_and(|b| b.kind != catan_engine::bot::BotKind::Random)),
    );
    let bar = progress_bar(games, label);
    let r = sim::run_jobs(&h.variants, h.players, &h.options, games, h.seed, lineup, jobs, |done| {
        if let Some(b) = &bar {
            b.set_position(done as u64);
        }
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    r.map_err(|e| e.to_string())
}

/// Who plays a `catan sim` run, from its flags: `--bots`, `--seats`, `--max-actions`, the
/// budget and the programs of `--bot-cmd` (named in a game of the run's set-up).
fn sim_lineup(
    h: &Header,
    bots: Option<&str>,
    seats: &str,
    max_actions: usize,
    budget: &BudgetArgs,
    bot_cmd: &BotCmdArgs,
) -> Result<sim::Lineup, String> {
    if bot_cmd.bot_cmd.is_empty() {
        return sim::Lineup::from_args(bots, seats, max_actions, budget.budget());
    }
    let game = catan_engine::Game::new(h.clone()).map_err(|e| e.to_string())?;
    let lineup = sim::Lineup::from_flags(bots, &bot_cmd.bot_cmd, seats, max_actions, budget.budget(), &game)?;
    Ok(sim::Lineup { bot_timeout: bot_cmd.timeout()?, ..lineup })
}

// Each argument is one flag of `catan sim`.
#[allow(clippy::too_many_arguments)]
fn run_sim(
    game: &GameArgs,
    games: usize,
    json: bool,
    jobs: Option<usize>,
    (bots, seats, max_actions, budget): (Option<&str>, &str, usize, &BudgetArgs),
    bot_cmd: &BotCmdArgs,
    compare: Option<Vec<String>>,
    sweep: Option<String>,
    out: Option<String>,
    plot: Option<String>,
) -> Result<(), String> {
    let h = header(game, false)?;
    if compare.is_some() && sweep.is_some() {
        return Err("--sweep and --compare cannot be combined: a sweep already plays the same seeds for each value; \
                    sweep each side's stack on its own"
            .into());
    }
    // JSON Lines rows carry each game's save, for `catan play --load rows.jsonl#N`.
    let saves = out.as_deref().is_some_and(sim::rows_are_jsonl);
    let lineup = &sim::Lineup { saves, ..sim_lineup(&h, bots, seats, max_actions, budget, bot_cmd)? };
    let jobs = jobs.unwrap_or_else(sim::default_jobs).max(1);
    let write =
        |path: &str, bytes: Vec<u8>| std::fs::write(path, bytes).map_err(|e| format!("cannot write {path}: {e}"));
    if let Some(text) = sweep {
        let (option, values) = sim::parse_sweep(&text)?;
        // Every value is checked before any game is played.
        let spec = script::Script::load(&h.variants).map_err(|e| e.to_string())?.spec.clone();
        for v in &values {
            script::resolve_options(&spec, &sim::sweep_options(&h.options, &option, v))
                .map_err(|e| format!("--sweep {option}={v}: {e}"))?;
        }
        let mut points = vec![];
        for value in values {
            let hs = Header { options: sim::sweep_options(&h.options, &option, &value), ..h.clone() };
            let report = play_side(&hs, games, lineup, jobs, &format!("{option}={value}"))?;
            points.push(sim::SweepPoint { value, report });
        }
        let s = sim::Sweep { option, points };
        if json {
            println!("{}", serde_json::to_string_pretty(&s).unwrap_or_default());
        } else {
            print!("{}", sim::sweep_text(&s, h.seed));
        }
        if let Some(path) = &out {
            let rows: Vec<(&str, &sim::GameRow)> =
                s.points.iter().flat_map(|p| p.report.rows.iter().map(|row| (p.value.as_str(), row))).collect();
            write(path, sim::rows_text_labelled("sweep", path, &rows, h.players).into_bytes())?;
        }
        if let Some(path) = &plot {
            write(path, plot::sweep_figure(path, &s)?)?;
        }
        return Ok(());
    }
    match compare {
        None => {
            let r = play_side(&h, games, lineup, jobs, "")?;
            if json {
                println!("{}", serde_json::to_string_pretty(&r).unwrap_or_default());
            } else {
                // Wins per kind only say something when kinds play each other.
                print!("{}", sim::report_text(&r, h.seed, r.bots.len() > 1));
            }
            if let Some(path) = &out {
                let rows: Vec<(&str, &sim::GameRow)> = r.rows.iter().map(|row| ("", row)).collect();
                write(path, sim::rows_text(path, &rows, r.players).into_bytes())?;
            }
            if let Some(path) = &plot {
                write(path, plot::figure(path, &[(&r.variants.join("+"), &r)])?)?;
            }
        }
        Some(sides) => {
            let mut reports = vec![];
            for (label, side) in ["A", "B"].iter().zip(&sides) {
                let (stack, opts) = sim::parse_side(side, &h.variants, &h.options)?;
                let spec = script::Script::load(&stack).map_err(|e| e.to_string())?.spec.clone();
                script::resolve_options(&spec, &opts).map_err(|e| format!("side {label} ({side}): {e}"))?;
                let hs = Header { variants: stack, options: opts, ..h.clone() };
                reports.push(play_side(&hs, games, lineup, jobs, label)?);
            }
            let (b, a) = (reports.pop(), reports.pop());
            let (Some(a), Some(b)) = (a, b) else { return Err("--compare takes two sides".into()) };
            let c = sim::compare(a, b)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&c).unwrap_or_default());
            } else {
                print!("{}", sim::comparison_text(&c, h.seed, &sides));
            }
            if let Some(path) = &out {
                let mut rows: Vec<(&str, &sim::GameRow)> = c.a.rows.iter().map(|row| ("A", row)).collect();
                rows.extend(c.b.rows.iter().map(|row| ("B", row)));
                write(path, sim::rows_text(path, &rows, c.a.players).into_bytes())?;
            }
            if let Some(path) = &plot {
                let (a, b) = (format!("A: {}", sides[0]), format!("B: {}", sides[1]));
                write(path, plot::figure(path, &[(&a, &c.a), (&b, &c.b)])?)?;
            }
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Variants { variants } => {
            let names = if variants.is_empty() { script::known_variants() } else { variants };
            let mut code = ExitCode::SUCCESS;
            for name in names {
                let stack: Vec<String> = name.split('+').map(|s| s.trim().to_string()).collect();
                match script::Script::load(&stack) {
                    Ok(s) => print!("{}", describe(&name, &s.spec)),
                    Err(e) => {
                        println!("{name}: cannot load: {e}");
                        code = ExitCode::from(1);
                    }
                }
            }
            code
        }
        Command::Test { files } => {
            let mut failed = 0;
            for f in &files {
                match catan_engine::scenario::run_file(f) {
                    Ok(o) if o.passed() => {
                        println!("{f}: ok ({} commands, {} expectations)", o.commands, o.expectations)
                    }
                    Ok(o) => {
                        failed += 1;
                        if let Some((what, transcript)) = &o.failure {
                            println!(
                                "{what}
transcript up to it:
{transcript}"
                            );
                        }
                    }
                    Err(e) => {
                        failed += 1;
                        println!("{e}");
                    }
                }
            }
            if files.len() > 1 {
                println!("{} of {} scenarios passed", files.len() - failed, files.len());
            }
            if failed > 0 {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Command::New { name, extends } => {
            match catan_engine::new_mod::create(std::path::Path::new("."), &name, &extends) {
                Ok(c) => {
                    println!("created {}:", c.dir.display());
                    for f in &c.files {
                        println!("  {}", f.display());
                    }
                    println!(
                    "next: `catan test {0}/{1}.scenario`, `catan check {0}/{1}.lua`, `catan play --variant {0}/{1}.lua --watch`",
                    c.dir.display(),
                    name
                );
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(1)
                }
            }
        }
        Command::Stubs => {
            print!("{}", catan_engine::api_doc::stubs());
            ExitCode::SUCCESS
        }
        Command::Check { variants, games, seed, players, options: opts, max_actions, json } => {
            let mut given = vec![];
            for o in &opts {
                match o.split_once('=') {
                    Some((k, v)) => given.push((k.trim().to_string(), v.trim().to_string())),
                    None => {
                        eprintln!("error: --option takes KEY=VALUE, not '{o}'");
                        return ExitCode::from(1);
                    }
                }
            }
            let o = check::CheckOptions { games, seed, players, options: given, max_actions };
            let mut any = false;
            let mut reports = vec![];
            for v in &variants {
                let stack: Vec<String> = v.split('+').map(|s| s.trim().to_string()).collect();
                let r = check::check(&stack, &o);
                any |= !r.findings.is_empty();
                if !json {
                    for f in &r.findings {
                        println!("{f}");
                    }
                    let played = match r.games_played {
                        0 => "no game".to_string(),
                        n => format!("{n} game(s) of seeds {seed}..{}", seed + n as u64 - 1),
                    };
                    eprintln!(
                        "{v}: {} file(s), {played} ({} actions): {} finding(s)",
                        r.files.len(),
                        r.actions,
                        r.findings.len()
                    );
                }
                reports.push(r);
            }
            if json {
                println!("{}", serde_json::to_string_pretty(&reports).unwrap_or_default());
            }
            if any {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Command::Tune { game, how } => match run_tune(&game, how) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(1)
            }
        },
        Command::Web { game, bots, budget, bot_cmd, load, no_offers, port, host, bot_pace, watch } => {
            let h = match load.as_ref().or(watch.as_ref()) {
                Some(path) => loaded_header(path, &game),
                None => header(&game, false),
            };
            let (h, bot_timeout) = match (h, bot_cmd.timeout()) {
                (Ok(h), Ok(t)) => (h, t),
                (Err(e), _) | (_, Err(e)) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(1);
                }
            };
            let bots = bots.unwrap_or_else(|| (2..=h.players).map(|s| s.to_string()).collect::<Vec<_>>().join(","));
            weights_warning(&h, bots.trim() != "none" && !bots.split(',').all(|b| b.trim().ends_with("random")));
            let config = catan_engine::web::WebConfig {
                load,
                bots,
                budget: budget.budget(),
                bot_offers: !no_offers,
                bot_cmds: bot_cmd.bot_cmd,
                bot_timeout: Some(bot_timeout),
                host,
                port,
                pace: std::time::Duration::from_millis(bot_pace),
                watch,
                ..catan_engine::web::WebConfig::new(h)
            };
            ExitCode::from(catan_engine::web::run(config) as u8)
        }
        Command::Serve => {
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            let mut out = std::io::stdout();
            ExitCode::from(protocol::serve(&mut input, &mut out) as u8)
        }
        Command::Sim {
            game,
            games,
            json,
            jobs,
            bots,
            seats,
            compare,
            sweep,
            out,
            plot,
            max_actions,
            budget,
            bot_cmd,
        } => {
            let who = (bots.as_deref(), seats.as_str(), max_actions, &budget);
            match run_sim(&game, games, json, jobs, who, &bot_cmd, compare, sweep, out, plot) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(1)
                }
            }
        }
        Command::Play {
            game,
            bots,
            budget,
            bot_cmd,
            strict,
            sandbox,
            load,
            pick,
            resume,
            no_color,
            debug,
            watch,
            no_offers,
            jsonl,
        } => {
            let load = match (load, resume) {
                (_, true) => match last_autosave(None) {
                    Ok(path) => Some(path.to_string_lossy().into_owned()),
                    Err(e) => {
                        eprintln!("error: --resume: {e}");
                        if jsonl {
                            println!("{}", jsonl_failure(&format!("--resume: {e}")));
                        }
                        return ExitCode::from(1);
                    }
                },
                (load, false) => load,
            };
            // `--load rows.jsonl --game 3` is `--load rows.jsonl#3`.
            let load = match (load, pick) {
                (Some(path), Some(n)) => Some(format!("{path}#{n}")),
                (load, _) => load,
            };
            let h = match &load {
                Some(path) => loaded_header(path, &game),
                None => header(&game, sandbox),
            };
            let h = match h {
                Ok(h) => h,
                Err(e) => {
                    eprintln!("error: {e}");
                    if jsonl {
                        println!("{}", jsonl_failure(&e));
                    }
                    return ExitCode::from(1);
                }
            };
            // Default: a bot in every seat but the first.
            let bots = bots.unwrap_or_else(|| (2..=h.players).map(|s| s.to_string()).collect::<Vec<_>>().join(","));
            weights_warning(&h, bots.trim() != "none" && !bots.split(',').all(|b| b.trim().ends_with("random")));
            let interactive = std::io::stdin().is_terminal() && !jsonl;
            let color = !no_color && std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
            let color = color && !jsonl;
            let bot_timeout = match bot_cmd.timeout() {
                Ok(t) => Some(t),
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(1);
                }
            };
            let config = ReplConfig {
                bots,
                budget: budget.budget(),
                strict,
                color,
                load,
                debug,
                jsonl,
                watch,
                bot_cmds: bot_cmd.bot_cmd,
                bot_timeout,
                bot_offers: !no_offers,
                // Hot seat: the screen passes between humans only at a terminal.
                hot_seat_pause: interactive,
                ..ReplConfig::new(h)
            };
            let code = if interactive {
                run_interactive(config)
            } else {
                let stdin = std::io::stdin();
                let mut input = stdin.lock();
                let mut out = std::io::stdout();
                run_script(config, &mut input, &mut out)
            };
            ExitCode::from(code as u8)
        }
    }
}
