//! `catan`: a thin shell over the catan-engine library.

use catan_engine::engine::{Header, SaveFile};
use catan_engine::repl::{jsonl_failure, last_autosave, run_interactive, run_script, ReplConfig};
use catan_engine::{script, sim};
use clap::{Parser, Subcommand};
use std::io::IsTerminal;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "catan", version, about = "A rules engine for the Catan family of games: play, simulate, mod.")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Args, Clone)]
struct GameArgs {
    /// Variant stack, e.g. base, or base+helpers, or a path to a .lua file (default: base)
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
        /// mcts, the strongest; default seats: every seat but the first)
        #[arg(long)]
        bots: Option<String>,
        #[command(flatten)]
        budget: BudgetArgs,
        /// Script mode: exit with status 2 at the first rejected command
        #[arg(long)]
        strict: bool,
        /// Allow the sandbox commands dice, give and place (logged)
        #[arg(long)]
        sandbox: bool,
        /// Load a saved game
        #[arg(long, conflicts_with = "resume")]
        load: Option<String>,
        /// Continue the last autosaved game (`quit` and `load` autosave unsaved progress)
        #[arg(long)]
        resume: bool,
        /// Never use colours
        #[arg(long)]
        no_color: bool,
        /// For modders: rule refusals with the variant and file:line that refused, and
        /// the test-only actions in `help`
        #[arg(long)]
        debug: bool,
        /// Script mode for programs: answer each command line with one JSON object
        /// (ok, error, messages, data, version, to_act)
        #[arg(long)]
        jsonl: bool,
    },
    /// Play many random-bot games and report wins per seat, mean turns and speed
    Sim {
        #[command(flatten)]
        game: GameArgs,
        /// Number of games
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Print the report as JSON
        #[arg(long)]
        json: bool,
        /// Games played at once, one Lua state per worker (default: every core). Each game's
        /// seed is the run's seed plus its index, so the report is the same for any N
        #[arg(long, value_name = "N")]
        jobs: Option<usize>,
        /// One bot per seat, e.g. "mcts,random,random,random" (kinds: random, greedy,
        /// mcts), rotated one seat each game; wins are reported per kind (default: random)
        #[arg(long)]
        bots: Option<String>,
        #[command(flatten)]
        budget: BudgetArgs,
    },
    /// List the variants with their descriptions and options
    Variants,
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
    let mut out = vec![];
    if let Some(path) = &args.options_file {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        let table: toml::Table = toml::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
        for (k, v) in table {
            let v = match v {
                toml::Value::String(s) => s,
                other => other.to_string(),
            };
            out.push((k, v));
        }
    }
    for o in &args.options {
        let (k, v) = o.split_once('=').ok_or_else(|| format!("--option takes KEY=VALUE, not '{o}'"))?;
        out.retain(|(key, _)| key != k.trim());
        out.push((k.trim().to_string(), v.trim().to_string()));
    }
    Ok(out)
}

fn variant_stack(args: &GameArgs) -> Vec<String> {
    args.variant.as_deref().unwrap_or("base").split('+').map(|s| s.trim().to_string()).collect()
}

/// With `--load`, the save decides the variants, players, seed and options: a flag that
/// asks for something else is refused rather than silently ignored.
fn loaded_header(path: &str, args: &GameArgs) -> Result<Header, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let save: SaveFile = serde_json::from_str(&text).map_err(|e| format!("{path} is not a saved game: {e}"))?;
    let h = save.header;
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
    let variants = variant_stack(args);
    let spec = script::Script::load(&variants).map_err(|e| e.to_string())?.spec.clone();
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
    });
    let header = Header {
        variants,
        players: args.players.unwrap_or(spec.default_players),
        seed,
        options: options(args)?,
        sandbox,
    };
    script::resolve_options(&spec, &header.options)?;
    Ok(header)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Variants => {
            for name in script::known_variants() {
                match script::describe_variant(&name) {
                    Ok(spec) => {
                        println!("{name}  (stack: {})", spec.variants.join(" -> "));
                        println!("  {}", spec.description);
                        println!(
                            "  players: {}-{} (default {})",
                            spec.min_players, spec.max_players, spec.default_players
                        );
                        for o in &spec.options {
                            let ty = match &o.kind {
                                catan_engine::spec::OptionType::Bool => "bool".to_string(),
                                catan_engine::spec::OptionType::Int { min, max } => {
                                    format!("int {min}..{max}")
                                }
                                catan_engine::spec::OptionType::Choice(c) => c.join("|"),
                                catan_engine::spec::OptionType::Text => "text".into(),
                            };
                            println!("    {:<22} {:<26} default {:<10} {}", o.name, ty, o.default.to_string(), o.doc);
                        }
                    }
                    Err(e) => println!("{name}: cannot load: {e}"),
                }
            }
            ExitCode::SUCCESS
        }
        Command::Sim { game, games, json, jobs, bots, budget } => {
            let h = match header(&game, false) {
                Ok(h) => h,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(1);
                }
            };
            let kinds: Result<Vec<_>, String> = match &bots {
                Some(list) => list.split(',').map(catan_engine::bot::BotKind::parse).collect(),
                None => Ok(vec![]),
            };
            let lineup = match kinds {
                Ok(bots) => sim::Lineup { bots, budget: budget.budget() },
                Err(e) => {
                    eprintln!("error: --bots: {e}");
                    return ExitCode::from(1);
                }
            };
            let tty = std::io::stderr().is_terminal();
            let jobs = jobs.unwrap_or_else(sim::default_jobs).max(1);
            let report = sim::run_jobs(&h.variants, h.players, &h.options, games, h.seed, &lineup, jobs, |done| {
                if tty && (done % 10 == 0 || done == games) {
                    eprint!("\r{done}/{games} games");
                }
            });
            if tty {
                eprintln!();
            }
            match report {
                Ok(r) if json => {
                    println!("{}", serde_json::to_string_pretty(&r).unwrap_or_default())
                }
                Ok(r) => {
                    println!(
                        "{} games of {} with {} players (seed {})",
                        r.games,
                        r.variants.join("+"),
                        r.players,
                        h.seed
                    );
                    println!("  finished with a winner: {}", r.finished);
                    if !r.failed.is_empty() {
                        println!("  stopped by a script error: {} (not counted in the means)", r.failed.len());
                        for f in r.failed.iter().take(5) {
                            println!("    seed {} after {} actions: {}", f.seed, f.actions, f.error);
                        }
                    }
                    for (i, w) in r.wins.iter().enumerate() {
                        println!("  seat {}: {} wins ({:.1}%)", i + 1, w, 100.0 * *w as f64 / r.games.max(1) as f64);
                    }
                    if !lineup.bots.is_empty() {
                        println!("  per bot (seats rotated each game; 95% confidence interval):");
                        for (name, b) in &r.bots {
                            println!(
                                "  {name:<7} in {} seat(s): {} wins ({:.1}%, {:.1}-{:.1}%; fair share {:.1}%)",
                                b.seats,
                                b.wins,
                                100.0 * b.rate,
                                100.0 * b.ci95[0],
                                100.0 * b.ci95[1],
                                100.0 * b.fair_share
                            );
                        }
                    }
                    println!("  mean turns: {:.1}, mean actions: {:.1}", r.mean_turns, r.mean_actions);
                    println!(
                        "  {:.2} s, {:.1} games per second on {} worker{}",
                        r.seconds,
                        r.games_per_second,
                        r.jobs,
                        if r.jobs == 1 { "" } else { "s" }
                    );
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(1);
                }
            }
            ExitCode::SUCCESS
        }
        Command::Play { game, bots, budget, strict, sandbox, load, resume, no_color, debug, jsonl } => {
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
            let interactive = std::io::stdin().is_terminal() && !jsonl;
            let color = !no_color && std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
            let color = color && !jsonl;
            let config =
                ReplConfig { bots, budget: budget.budget(), strict, color, load, debug, jsonl, ..ReplConfig::new(h) };
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
