//! `catan web`: the game in a browser (`docs/web.md`). An axum server on tokio serves the
//! page (its files built into the binary, `assets.rs`) and one WebSocket per page, which
//! speaks the requests of `catan serve` (`docs/protocol.md`) and receives an `update`
//! after every action. The game lives on a thread of its own (`table.rs`: a `Game` holds
//! its Lua state and is not `Send`), reached through a channel.
//!
//! Every page holds a token: one per human seat, one for the host's hot-seat page, one
//! for spectators. The token decides what the socket may read and do, here on the server:
//! a seat's socket is only ever sent that seat's view and the log lines it may read.

pub mod assets;
pub mod replay;
pub mod table;

use crate::bot::external::{seat_named_programs, ExternalSeats};
use crate::bot::{Budget, SeatBot};
use crate::engine::{Game, Header};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::serve::ListenerExt;
use axum::Router;
use serde_json::{json, Value as J};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;
use table::{Job, LogLine, Player, Role, Table, Update};
use tokio::sync::{oneshot, watch};

/// The largest request a page may send: an action or a hint request is a few hundred
/// bytes; nothing a page sends carries a save.
pub const MESSAGE_CAP: usize = 64 * 1024;

/// How `catan web` was asked to run.
pub struct WebConfig {
    pub header: Header,
    /// A save (or `catan sim --out` rows with `#N`) to continue instead of a new game.
    pub load: Option<String>,
    /// Seats played by bots, as `catan play --bots` takes them.
    pub bots: String,
    pub budget: Budget,
    /// Whether bots make trade offers of their own.
    pub bot_offers: bool,
    /// `--bot-cmd` programs, as `catan play` takes them.
    pub bot_cmds: Vec<String>,
    pub bot_timeout: Option<Duration>,
    /// The address to listen on (127.0.0.1 unless `--host`).
    pub host: IpAddr,
    /// 0: any free port.
    pub port: u16,
    /// The pause between two bots' actions, so that each shows before the next.
    pub pace: Duration,
    /// A save (or sim rows with `#N`) to watch step by step instead of playing
    /// (`replay.rs`): every page is a spectator.
    pub watch: Option<String>,
}

impl WebConfig {
    /// A game of `header` on 127.0.0.1, any free port, no bots, no pause.
    pub fn new(header: Header) -> WebConfig {
        WebConfig {
            header,
            load: None,
            bots: "none".into(),
            budget: Budget::default(),
            bot_offers: true,
            bot_cmds: vec![],
            bot_timeout: None,
            host: IpAddr::from([127, 0, 0, 1]),
            port: 0,
            pace: Duration::ZERO,
            watch: None,
        }
    }
}

/// A running server: where it listens and the tokens of its links. Dropping it stops it.
pub struct WebServer {
    pub addr: SocketAddr,
    pub host_token: String,
    pub spectator_token: String,
    /// The token of each human seat (None: a bot plays it).
    pub seat_tokens: Vec<Option<String>>,
    pub colors: Vec<String>,
    /// Where a loaded save stopped agreeing with its replay.
    pub warning: Option<String>,
    /// A game watched step by step (`--watch`): every link is a spectator's.
    pub watching: bool,
    shutdown: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl WebServer {
    /// The link of a token, as printed.
    pub fn link(&self, token: &str) -> String {
        let host = match self.addr.ip() {
            ip if ip.is_unspecified() => "127.0.0.1".to_string(),
            IpAddr::V6(ip) => format!("[{ip}]"),
            ip => ip.to_string(),
        };
        format!("http://{host}:{}/?token={token}", self.addr.port())
    }

    /// Every link with what it is for.
    pub fn links(&self) -> Vec<(String, String)> {
        let host = match self.watching {
            true => "host (watching: steps through the game)",
            false => "host (hot seat: every human seat)",
        };
        let mut out = vec![(host.to_string(), self.link(&self.host_token))];
        for (s, t) in self.seat_tokens.iter().enumerate() {
            if let Some(t) = t {
                let color = self.colors.get(s).cloned().unwrap_or_default();
                out.push((format!("seat {} ({color})", s + 1), self.link(t)));
            }
        }
        out.push(("spectator".to_string(), self.link(&self.spectator_token)));
        out
    }

    /// Serves until the process ends.
    pub fn wait(mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for WebServer {
    fn drop(&mut self) {
        if let Some(s) = self.shutdown.take() {
            let _ = s.send(());
        }
    }
}

/// A fresh token: 128 bits from the thread's generator (ChaCha seeded by the system).
fn token() -> String {
    use rand::Rng;
    format!("{:032x}", rand::rng().random::<u128>())
}

/// The players of each seat, from `--bots` and `--bot-cmd` as `catan play` reads them.
fn seat_players(config: &WebConfig, game: &Game) -> Result<Vec<Player>, String> {
    let players = game.header().players;
    let seed = game.header().seed;
    let (bots_spec, bot_cmds) = seat_named_programs(&config.bots, &config.bot_cmds, game)?;
    let kinds = crate::repl::parse_bots(&bots_spec, game)?;
    let mut ext = ExternalSeats::parse(&bot_cmds, game, &(1..players).collect::<Vec<_>>())?;
    ext.timeout = config.bot_timeout;
    let mut programs = ext.bots();
    (0..players)
        .map(|s| {
            if let Some(p) = programs.get_mut(s).and_then(Option::take) {
                return Ok(Player::Program(Box::new(p)));
            }
            let seed = seed ^ (0xB07 + s as u64 * 7919);
            match kinds.get(s).cloned().flatten() {
                Some(spec) => {
                    let mut bot = SeatBot::new(&spec, seed, config.budget, game).map_err(|e| format!("--bots: {e}"))?;
                    bot.bot.set_own_offers(config.bot_offers);
                    Ok(Player::Bot(Box::new(bot)))
                }
                None => Ok(Player::Human),
            }
        })
        .collect::<Result<Vec<_>, String>>()
}

/// What the table thread reports once its game is made: the colours, which seats are
/// human, the warning of a load.
type Ready = Result<(Vec<String>, Vec<bool>, Option<String>), String>;

/// The table's thread: makes the game (it never leaves this thread) and serves it.
fn start_table(
    config: WebConfig,
    log: Arc<Mutex<Vec<LogLine>>>,
    updates: watch::Sender<Arc<Update>>,
    jobs: mpsc::Receiver<Job>,
    ready: mpsc::Sender<Ready>,
) {
    if let Some(path) = &config.watch {
        return replay::start(path, updates, jobs, ready);
    }
    let made = (|| -> Result<(Table, Ready), String> {
        let (game, warning) = match &config.load {
            Some(path) => {
                let save = crate::repl::read_save(path)?;
                let (game, d) = Game::replay(&save).map_err(|e| e.to_string())?;
                let played = game.log().len();
                (game, d.map(|d| format!("{d} (in {path}); loaded the {played} actions before it")))
            }
            None => (Game::new(config.header.clone()).map_err(|e| e.to_string())?, None),
        };
        let players = seat_players(&config, &game)?;
        let colors = game.state().players.iter().map(|p| p.color.to_string()).collect();
        let table = Table::new(game, players, config.budget, config.pace, log, updates);
        let humans = table.humans().to_vec();
        Ok((table, Ok((colors, humans, warning))))
    })();
    match made {
        Ok((table, info)) => {
            let _ = ready.send(info);
            table.run(jobs);
        }
        Err(e) => {
            let _ = ready.send(Err(e));
        }
    }
}

/// What every request handler shares.
struct App {
    tokens: HashMap<String, Role>,
    jobs: Mutex<mpsc::Sender<Job>>,
    updates: watch::Receiver<Arc<Update>>,
    log: Arc<Mutex<Vec<LogLine>>>,
    players: usize,
    humans: Vec<bool>,
}

/// Starts the table and the server; returns once the game is made and the port bound.
pub fn start(config: WebConfig) -> Result<WebServer, String> {
    let addr = SocketAddr::new(config.host, config.port);
    let watching = config.watch.is_some();
    let listener = std::net::TcpListener::bind(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    listener.set_nonblocking(true).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;

    let log = Arc::new(Mutex::new(vec![]));
    let (updates_tx, updates_rx) = watch::channel(Arc::new(Update::default()));
    let (jobs_tx, jobs_rx) = mpsc::channel();
    let (ready_tx, ready_rx) = mpsc::channel();
    let table_log = log.clone();
    std::thread::Builder::new()
        .name("catan-web-table".into())
        .spawn(move || start_table(config, table_log, updates_tx, jobs_rx, ready_tx))
        .map_err(|e| format!("cannot start the game's thread: {e}"))?;
    let (colors, humans, warning) =
        ready_rx.recv().map_err(|_| "the game's thread stopped before the game was made".to_string())??;

    let players = colors.len();
    let host_token = token();
    let spectator_token = token();
    let seat_tokens: Vec<Option<String>> = humans.iter().map(|h| h.then(token)).collect();
    let mut tokens = HashMap::new();
    tokens.insert(host_token.clone(), Role::Host);
    tokens.insert(spectator_token.clone(), Role::Spectator);
    for (s, t) in seat_tokens.iter().enumerate() {
        if let Some(t) = t {
            tokens.insert(t.clone(), Role::Seat(s));
        }
    }
    let app = Arc::new(App { tokens, jobs: Mutex::new(jobs_tx), updates: updates_rx, log, players, humans });
    let router =
        Router::new().route("/", get(index)).route("/ws", get(socket)).route("/{file}", get(file)).with_state(app);
    let (shutdown_tx, shutdown_rx) = oneshot::channel::<()>();
    let thread = std::thread::Builder::new()
        .name("catan-web-server".into())
        .spawn(move || {
            let rt = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                Ok(rt) => rt,
                Err(e) => return eprintln!("error: cannot start the server: {e}"),
            };
            rt.block_on(async move {
                let listener = match tokio::net::TcpListener::from_std(listener) {
                    Ok(l) => l,
                    Err(e) => return eprintln!("error: cannot listen: {e}"),
                };
                // Small messages at once: an answer and the update after it would otherwise
                // wait for the page's delayed acknowledgement (Nagle's algorithm, 40 ms).
                let listener = listener.tap_io(|tcp| {
                    let _ = tcp.set_nodelay(true);
                });
                let served = axum::serve(listener, router).with_graceful_shutdown(async move {
                    let _ = shutdown_rx.await;
                });
                if let Err(e) = served.await {
                    eprintln!("error: the server stopped: {e}");
                }
            });
        })
        .map_err(|e| format!("cannot start the server's thread: {e}"))?;
    Ok(WebServer {
        addr,
        host_token,
        spectator_token,
        seat_tokens,
        colors,
        warning,
        watching,
        shutdown: Some(shutdown_tx),
        thread: Some(thread),
    })
}

/// `catan web`: starts, prints the links, serves until stopped. Returns the exit status.
pub fn run(config: WebConfig) -> i32 {
    let beyond = !config.host.is_loopback();
    let server = match start(config) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    if let Some(w) = &server.warning {
        eprintln!("warning: {w}");
    }
    println!("catan web: serving on {}", server.addr);
    for (what, link) in server.links() {
        println!("  {what:<36} {link}");
    }
    if beyond {
        println!(
            "  (listening beyond this machine: give each friend the link of their seat, with this \
             machine's address in place of {}; anyone who gets a link plays or watches with it)",
            server.addr.ip()
        );
    }
    println!("Open a link in a browser; Ctrl-C stops the server.");
    server.wait();
    0
}

/// The page itself; the token stays in its address, read by the page's script.
async fn index() -> Response {
    file(Path("index.html".to_string())).await
}

/// A file of the page, built into the binary.
async fn file(Path(name): Path<String>) -> Response {
    match assets::FILES.iter().find(|(n, _, _)| *n == name) {
        Some((_, kind, bytes)) => (
            [
                (header::CONTENT_TYPE, *kind),
                (header::CACHE_CONTROL, "no-cache"),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
                // The page loads nothing from elsewhere and talks only to this server.
                (header::CONTENT_SECURITY_POLICY, "default-src 'self'; img-src 'self' data:; connect-src 'self'"),
            ],
            *bytes,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, format!("no file {name}")).into_response(),
    }
}

/// The WebSocket of a page: refused (before the upgrade) without a token of this game.
async fn socket(
    State(app): State<Arc<App>>,
    Query(query): Query<HashMap<String, String>>,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Response {
    let role = match query.get("token") {
        None => {
            return (StatusCode::UNAUTHORIZED, "no token: open the link `catan web` printed (it ends in ?token=...)")
                .into_response()
        }
        Some(t) => match app.tokens.get(t) {
            Some(role) => *role,
            None => {
                return (
                    StatusCode::FORBIDDEN,
                    "this token is not one of this game's: open a link the running `catan web` printed",
                )
                    .into_response()
            }
        },
    };
    match upgrade {
        Ok(ws) => ws.max_message_size(MESSAGE_CAP).on_upgrade(move |ws| serve_socket(ws, role, app)),
        Err(e) => e.into_response(),
    }
}

/// Asks the table and waits for its answer.
async fn ask(app: &App, role: Role, request: J) -> J {
    let (reply, answer) = oneshot::channel();
    let sent = app.jobs.lock().map(|jobs| jobs.send(Job { role, request, reply }).is_ok()).unwrap_or(false);
    let stopped = json!({ "ok": false, "error": { "kind": "no_game", "message": "the game's thread stopped" } });
    if !sent {
        return stopped;
    }
    answer.await.unwrap_or(stopped)
}

/// The log lines from `from` up to `to` that `role` may read.
fn log_lines(app: &App, role: Role, from: usize, to: usize) -> (Vec<J>, usize) {
    let Ok(log) = app.log.lock() else { return (vec![], from) };
    let to = to.min(log.len());
    let lines = log
        .get(from..to)
        .unwrap_or_default()
        .iter()
        .filter(|l| l.readable(role, &app.humans))
        .map(|l| json!({ "text": l.text, "bot": l.bot }))
        .collect();
    (lines, to.max(from))
}

/// One page: its requests answered in turn, and every update pushed as it comes.
async fn serve_socket(mut ws: WebSocket, role: Role, app: Arc<App>) {
    let mut updates = app.updates.clone();
    updates.mark_changed();
    let mut cursor = 0;
    // Hints' answers, which come from a worker thread (table.rs) while this page goes on
    // being pushed updates.
    let (hints_tx, mut hints) = tokio::sync::mpsc::unbounded_channel::<J>();
    loop {
        tokio::select! {
            Some(answer) = hints.recv() => {
                if ws.send(Message::Text(answer.to_string().into())).await.is_err() {
                    break;
                }
            }
            changed = updates.changed() => {
                if changed.is_err() {
                    break;
                }
                let update = updates.borrow_and_update().clone();
                let Some(payload) = update.payload(role, app.players).and_then(|p| p.strip_suffix('}')) else { continue };
                let (lines, end) = log_lines(&app, role, cursor, update.log_length);
                cursor = end;
                let payload = format!("{payload},\"log\":{},\"version\":{}}}", J::Array(lines), update.version);
                if ws.send(Message::Text(payload.into())).await.is_err() {
                    break;
                }
            }
            message = ws.recv() => {
                let text = match message {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => continue,
                };
                let answer = match serde_json::from_str::<J>(text.as_str()) {
                    Ok(request) if request["cmd"] == "hint" => {
                        let (app, hints_tx) = (app.clone(), hints_tx.clone());
                        tokio::spawn(async move {
                            let _ = hints_tx.send(ask(&app, role, request).await);
                        });
                        continue;
                    }
                    // Answered in turn: an action's answer goes before the update it causes.
                    Ok(request) => ask(&app, role, request).await,
                    Err(e) => json!({ "ok": false, "error": { "kind": "protocol", "message": format!("not JSON: {e}") } }),
                };
                if ws.send(Message::Text(answer.to_string().into())).await.is_err() {
                    break;
                }
            }
        }
    }
}
