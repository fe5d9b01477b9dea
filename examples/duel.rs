//! Two MCTS configurations against each other, seats alternating:
//! `cargo run --release --example duel -- GAME GAMES A B [key=value ...]`, where A and B are
//! comma-separated settings (`iterations=1000,selection=grave,c=0.4,grave_ref=50,
//! grave_bias=1e-6,playouts=mast,reuse=true,time=0.1`, or `preset=strong,time=0.1`) and the trailing
//! pairs are game options. Prints A's score with a 95 % interval. A quick tool for trying
//! settings; the strength ladder (`experiments/strength/`) is the measurement.

use stonefield::games::OptionValue;
use stonefield::search::mcts::{Playouts, Preset, Selection};
use stonefield::search::play::{play_range, Agent};
use stonefield::search::MctsConfig;
use stonefield::Game;

fn config(spec: &str) -> MctsConfig {
    let mut cfg = MctsConfig::default();
    for kv in spec.split(',').filter(|s| !s.is_empty()) {
        let (k, v) = kv.split_once('=').expect("key=value");
        match k {
            "iterations" => cfg.iterations = Some(v.parse().expect("int")),
            "time" => {
                cfg.time = Some(v.parse().expect("seconds"));
                cfg.iterations = None;
            }
            "c" => cfg.c = v.parse().expect("number"),
            "grave_ref" => cfg.grave_ref = v.parse().expect("int"),
            "grave_bias" => cfg.grave_bias = v.parse().expect("number"),
            "selection" => cfg.selection = Selection::from_name(v).expect("selection"),
            "playouts" => cfg.playouts = Playouts::from_name(v).expect("playouts"),
            "solver" => cfg.solver = Some(v == "true"),
            "reuse" => cfg.reuse = v == "true",
            "preset" => cfg.preset = Some(Preset::from_name(v).expect("preset")),
            _ => panic!("unknown setting {k}"),
        }
    }
    cfg
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = &args[0];
    let games: usize = args[1].parse().expect("games");
    let a = config(&args[2]);
    let b = config(&args[3]);
    let options: Vec<(String, OptionValue)> = args[4..]
        .iter()
        .filter_map(|kv| {
            let (k, v) = kv.split_once('=')?;
            let v = match v.parse::<i64>() {
                Ok(i) => OptionValue::Int(i),
                Err(_) => OptionValue::Str(v.to_string()),
            };
            Some((k.to_string(), v))
        })
        .collect();
    let game = Game::make(name, &options).expect("valid game");
    let n = game.num_players();
    assert_eq!(n, 2, "duels are for two players");
    let agents = [Agent::Mcts(a), Agent::Mcts(b)];
    let seats: Vec<usize> = (0..games)
        .flat_map(|g| if g % 2 == 0 { [0, 1] } else { [1, 0] })
        .collect();
    let recs = play_range(&game, &agents, &seats, 7, 0, true).expect("games");
    let mut score = 0.0;
    for (g, r) in recs.iter().enumerate() {
        let seat_a = if g % 2 == 0 { 0 } else { 1 };
        score += (r.returns[seat_a] + 1.0) / 2.0;
    }
    let p = score / games as f64;
    let half = 1.96 * (p * (1.0 - p) / games as f64).sqrt();
    println!(
        "{name} {:?}: A {:.3} ± {:.3} over {games} games ({} vs {})",
        &args[4..],
        p,
        half,
        args[2],
        args[3]
    );
}
