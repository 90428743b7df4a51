fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10);
    let r = catan_engine::sim::run(&["base".into()], 4, &[], games, 1, |_| {});
    println!("{r:?}");
}
