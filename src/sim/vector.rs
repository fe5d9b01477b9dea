//! A vector of games stepped together, writing observations, masks and rewards into caller-owned
//! buffers (numpy arrays on the Python side) so nothing is allocated per step.
//!
//! A game that ends during `step` reports its rewards and end flags in that step's output and is
//! reset to the starting position at once; the observation and mask written for it are those of
//! the new game.

use std::collections::TryReserveError;

use rayon::prelude::*;

use crate::error::{Error, IllegalMove, Item, Result};
use crate::games::{Footprint, Game, Rules, State};
use crate::rng::Rng;

/// Output buffers of one step, for `E` environments.
pub struct StepOut<'a> {
    /// `E × planes × sites` observations.
    pub obs: &'a mut [f32],
    /// `E × actions` legal masks.
    pub mask: &'a mut [bool],
    /// `E × players` rewards: the returns of a game that ended in this step, else 0.
    pub rewards: &'a mut [f32],
    /// `E`: the game ended by the rules in this step.
    pub terminated: &'a mut [bool],
    /// `E`: the game ended at its move cap in this step.
    pub truncated: &'a mut [bool],
    /// `E`: the player to move next.
    pub player: &'a mut [i32],
}

/// Sizes of the per-environment rows of the buffers.
#[derive(Clone, Copy, Debug)]
pub struct Shapes {
    pub obs: usize,
    pub actions: usize,
    pub players: usize,
}

/// One environment: its game and the actions of that game so far, and the last game that ended
/// in it with the player who made its final action (kept for final observations).
#[derive(Clone, Debug)]
struct Env {
    state: State,
    history: Vec<u32>,
    ended: State,
    ended_by: usize,
}

/// A batch of independent games of one configuration.
pub struct VectorEnv {
    game: Game,
    start: State,
    states: Vec<Env>,
    rngs: Vec<Rng>,
    shapes: Shapes,
}

const CHUNK: usize = 32;

impl VectorEnv {
    /// `num_envs` games at their start; environment `i` samples random actions from the stream
    /// (seed, i).
    pub fn new(game: &Game, num_envs: usize, seed: u64) -> VectorEnv {
        match VectorEnv::try_new(game, num_envs, seed) {
            Ok(env) => env,
            Err(e) => panic!("vector environment of {num_envs} games: {e}"),
        }
    }

    /// As [`VectorEnv::new`], but a failed allocation of the per-environment lists is an error
    /// instead of an abort. (Each state's own small allocations still abort if memory runs out
    /// between the lists and them; callers check [`VectorEnv::bytes_per_env`] against the memory
    /// available first.)
    pub fn try_new(
        game: &Game,
        num_envs: usize,
        seed: u64,
    ) -> std::result::Result<VectorEnv, TryReserveError> {
        let start = game.new_state();
        let shapes = Shapes {
            obs: start.observation_planes() * start.board().num_sites(),
            actions: start.num_actions(),
            players: start.num_players(),
        };
        let mut states = Vec::new();
        states.try_reserve_exact(num_envs)?;
        states.resize(
            num_envs,
            Env {
                state: start.clone(),
                history: Vec::new(),
                ended: start.clone(),
                ended_by: 0,
            },
        );
        let mut rngs = Vec::new();
        rngs.try_reserve_exact(num_envs)?;
        rngs.extend((0..num_envs as u64).map(|i| Rng::stream(seed, i)));
        Ok(VectorEnv {
            game: game.clone(),
            states,
            rngs,
            start,
            shapes,
        })
    }

    /// Memory one environment of `game` takes in this struct, buffers aside: its entries in the
    /// lists, the heap of its state and of its last finished state, and its history, counted for a game as long as the board has
    /// sites (most games are shorter; a longer one grows its history as it goes).
    pub fn bytes_per_env(game: &Game) -> usize {
        let start = game.new_state();
        std::mem::size_of::<Env>()
            + std::mem::size_of::<Rng>()
            + 2 * start.heap_bytes()
            + std::mem::size_of::<u32>() * start.board().num_sites()
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn num_envs(&self) -> usize {
        self.states.len()
    }

    pub fn shapes(&self) -> Shapes {
        self.shapes
    }

    /// The state of environment `i`.
    pub fn state(&self, i: usize) -> Option<&State> {
        self.states.get(i).map(|e| &e.state)
    }

    /// The actions of environment `i`'s current game.
    pub fn history(&self, i: usize) -> Option<&[u32]> {
        self.states.get(i).map(|e| &e.history[..])
    }

    /// Puts every game back at the start and writes the observations.
    pub fn reset(&mut self, out: StepOut<'_>, parallel: bool) {
        for e in &mut self.states {
            e.state.clone_from(&self.start);
            e.history.clear();
        }
        run(
            &mut self.states,
            self.shapes,
            out,
            parallel,
            |_, _, _, _| {},
        );
    }

    /// Checks a batch of actions without changing anything: the first illegal one is reported
    /// with its environment index.
    pub fn check(&self, actions: &[i64]) -> Result<()> {
        if actions.len() != self.states.len() {
            return Err(IllegalMove::Count {
                expected: self.states.len(),
                got: actions.len(),
            }
            .into());
        }
        for (i, (e, &a)) in self.states.iter().zip(actions).enumerate() {
            let s = &e.state;
            let legal = a >= 0 && (a as u64) < s.num_actions() as u64 && s.is_legal(a as usize);
            if !legal {
                // Let the game give the reason, on a copy.
                let reason = s.clone().apply(a).err().unwrap_or_else(|| {
                    IllegalMove::OutOfRange {
                        game: s.game_name(),
                        action: a,
                        actions: s.num_actions(),
                    }
                    .into()
                });
                return Err(Error::At {
                    item: Item::Environment,
                    index: i,
                    error: Box::new(reason),
                });
            }
        }
        Ok(())
    }

    /// Applies one action per environment (checked first: on error nothing changes), resets the
    /// games that ended, and writes the outputs.
    pub fn step(&mut self, actions: &[i64], out: StepOut<'_>, parallel: bool) -> Result<()> {
        self.check(actions)?;
        let start = &self.start;
        run(
            &mut self.states,
            self.shapes,
            out,
            parallel,
            |i, e, rewards, flags| {
                let s = &mut e.state;
                let mover = s.current_player().unwrap_or(0);
                s.apply_unchecked(actions[i] as usize);
                e.history.push(actions[i] as u32);
                rewards.fill(0.0);
                *flags = (false, false);
                if s.is_terminal() {
                    if let Some(r) = s.returns() {
                        for (dst, v) in rewards.iter_mut().zip(r) {
                            *dst = v as f32;
                        }
                    }
                    *flags = (!s.truncated(), s.truncated());
                    // Keep the finished game (a swap, no allocation) for final observations.
                    std::mem::swap(&mut e.state, &mut e.ended);
                    e.ended_by = mover;
                    e.state.clone_from(start);
                    e.history.clear();
                }
            },
        );
        Ok(())
    }

    /// Writes, for each environment in `indices`, the observation of the last game that ended in
    /// it (its final position, seen by the player who made the final action; the start
    /// position if none has ended yet) into consecutive rows of `out`.
    pub fn final_observations(&self, indices: &[usize], out: &mut [f32]) -> Result<()> {
        let n = self.states.len();
        if let Some(bad) = indices.iter().find(|&&i| i >= n) {
            return Err(Error::InvalidOption(format!(
                "environment {bad} out of range 0..{n}"
            )));
        }
        for (&i, row) in indices.iter().zip(out.chunks_mut(self.shapes.obs)) {
            let e = &self.states[i];
            e.ended.write_observation_for(e.ended_by, row);
        }
        Ok(())
    }

    /// A uniformly random legal action for every environment, drawn from its own stream.
    pub fn random_actions(&mut self, out: &mut [i64]) {
        let mut buf = Vec::new();
        for ((e, rng), o) in self.states.iter().zip(&mut self.rngs).zip(out) {
            *o = e
                .state
                .random_action(rng, &mut buf)
                .map_or(-1, |a| a as i64);
        }
    }
}

/// Runs `f` on every environment (with its reward row and end flags), then writes its
/// observation, mask and player, in parallel chunks when asked.
fn run<F>(states: &mut [Env], sh: Shapes, out: StepOut<'_>, parallel: bool, f: F)
where
    F: Fn(usize, &mut Env, &mut [f32], &mut (bool, bool)) + Sync,
{
    let StepOut {
        obs,
        mask,
        rewards,
        terminated,
        truncated,
        player,
    } = out;
    let work = |(k, (((((states, obs), mask), rewards), (term, trunc)), player)): (
        usize,
        EnvChunk<'_>,
    )| {
        for j in 0..states.len() {
            let e = &mut states[j];
            let mut flags = (term[j], trunc[j]);
            f(
                k * CHUNK + j,
                e,
                &mut rewards[j * sh.players..(j + 1) * sh.players],
                &mut flags,
            );
            (term[j], trunc[j]) = flags;
            let s = &e.state;
            s.write_observation(&mut obs[j * sh.obs..(j + 1) * sh.obs]);
            s.write_legal_mask(&mut mask[j * sh.actions..(j + 1) * sh.actions]);
            player[j] = s.current_player().map_or(-1, |p| p as i32);
        }
    };
    let flags = terminated
        .chunks_mut(CHUNK)
        .zip(truncated.chunks_mut(CHUNK))
        .collect::<Vec<_>>();
    let chunks = states
        .chunks_mut(CHUNK)
        .zip(obs.chunks_mut(CHUNK * sh.obs))
        .zip(mask.chunks_mut(CHUNK * sh.actions))
        .zip(rewards.chunks_mut(CHUNK * sh.players))
        .zip(flags)
        .zip(player.chunks_mut(CHUNK))
        .enumerate()
        .collect::<Vec<_>>();
    if parallel {
        chunks.into_par_iter().for_each(work);
    } else {
        chunks.into_iter().for_each(work);
    }
}

type EnvChunk<'a> = (
    (
        (
            ((&'a mut [Env], &'a mut [f32]), &'a mut [bool]),
            &'a mut [f32],
        ),
        (&'a mut [bool], &'a mut [bool]),
    ),
    &'a mut [i32],
);

#[cfg(test)]
mod tests {
    use super::*;

    struct Buffers {
        obs: Vec<f32>,
        mask: Vec<bool>,
        rewards: Vec<f32>,
        terminated: Vec<bool>,
        truncated: Vec<bool>,
        player: Vec<i32>,
    }

    impl Buffers {
        fn new(env: &VectorEnv) -> Buffers {
            let e = env.num_envs();
            let sh = env.shapes();
            Buffers {
                obs: vec![0.0; e * sh.obs],
                mask: vec![false; e * sh.actions],
                rewards: vec![0.0; e * sh.players],
                terminated: vec![false; e],
                truncated: vec![false; e],
                player: vec![0; e],
            }
        }

        fn out(&mut self) -> StepOut<'_> {
            StepOut {
                obs: &mut self.obs,
                mask: &mut self.mask,
                rewards: &mut self.rewards,
                terminated: &mut self.terminated,
                truncated: &mut self.truncated,
                player: &mut self.player,
            }
        }
    }

    #[test]
    fn agrees_with_single_states_and_resets() {
        for (name, n_envs) in [("windflowers", 70usize)] {
            let game = Game::make(name, &[]).expect("valid");
            let mut env = VectorEnv::new(&game, n_envs, 3);
            let mut b = Buffers::new(&env);
            env.reset(b.out(), false);
            let mut singles: Vec<State> = vec![game.new_state(); n_envs];
            let mut actions = vec![0i64; n_envs];
            let mut ended = 0;
            let sh = env.shapes();
            for step in 0..300 {
                env.random_actions(&mut actions);
                env.step(&actions, b.out(), step % 2 == 0)
                    .expect("legal actions");
                for i in 0..n_envs {
                    let mover = singles[i].current_player().expect("running");
                    singles[i].apply(actions[i]).expect("legal");
                    let row = &b.rewards[i * sh.players..(i + 1) * sh.players];
                    if singles[i].is_terminal() {
                        ended += 1;
                        assert_eq!(b.truncated[i], singles[i].truncated());
                        assert_eq!(b.terminated[i], !singles[i].truncated());
                        let r = singles[i].returns().expect("terminal");
                        let r: Vec<f32> = r.into_iter().map(|v| v as f32).collect();
                        assert_eq!(row, &r[..]);
                        let mut fin = vec![0.0; sh.obs];
                        singles[i].write_observation_for(mover, &mut fin);
                        let mut got = vec![0.0; sh.obs];
                        env.final_observations(&[i], &mut got).expect("in range");
                        assert_eq!(got, fin);
                        singles[i] = game.new_state();
                    } else {
                        assert!(!b.terminated[i] && !b.truncated[i]);
                        assert!(row.iter().all(|&v| v == 0.0));
                    }
                    let mut o = vec![0.0; sh.obs];
                    singles[i].write_observation(&mut o);
                    assert_eq!(&b.obs[i * sh.obs..(i + 1) * sh.obs], &o[..]);
                    let mut m = vec![false; sh.actions];
                    singles[i].write_legal_mask(&mut m);
                    assert_eq!(&b.mask[i * sh.actions..(i + 1) * sh.actions], &m[..]);
                    let p = singles[i].current_player().map_or(-1, |p| p as i32);
                    assert_eq!(b.player[i], p);
                }
            }
            assert!(ended > 0);
        }
    }

    #[test]
    fn an_illegal_action_names_its_environment_and_changes_nothing() {
        let game = Game::make("windflowers", &[]).expect("valid");
        let mut env = VectorEnv::new(&game, 4, 0);
        let mut b = Buffers::new(&env);
        env.step(&[0, 1, 2, 3], b.out(), false).expect("legal");
        let obs = b.obs.clone();
        let err = env.step(&[4, 5, 2, 6], b.out(), false).unwrap_err();
        assert!(err.to_string().starts_with("environment 2:"), "{err}");
        assert_eq!(env.state(0).map(|s| s.move_count()), Some(1));
        assert_eq!(env.history(0), Some(&[0u32][..]));
        assert_eq!(b.obs, obs);
        let err = env.check(&[1, 2]).unwrap_err();
        assert!(err.to_string().contains("expected 4 actions"));
        let err = env.check(&[1, 2, 3, -4]).unwrap_err();
        assert!(err.to_string().contains("environment 3"), "{err}");
    }
}
