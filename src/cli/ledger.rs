//! `faan ledger`: a match played from a ledger request, as a table.

use super::*;

/// Options of `faan ledger`.
#[derive(Args, Debug, Clone)]
pub struct LedgerArgs {
    /// A ledger request as JSON (the body of POST /v1/ledger); `-` reads standard input.
    pub input: PathBuf,
    /// Print the JSON answer of POST /v1/ledger instead of the table.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print the night as CSV (what POST /v1/ledger answers with `Accept: text/csv`), for a spreadsheet.
    #[arg(long)]
    pub csv: bool,
}

/// `faan ledger`: the request read (its JSON is the input's format), played
/// by `Service::ledger_request`, and the table formatted from the typed
/// answer; `--json` writes that answer with the endpoint's writer.
pub fn run_ledger(args: &LedgerArgs) -> ExitCode {
    let service = match builtin() {
        Ok(r) => Service::uncached(r),
        Err(code) => return code,
    };
    let mut text = Vec::new();
    let read = if args.input.as_os_str() == "-" {
        std::io::stdin().read_to_end(&mut text)
    } else {
        std::fs::File::open(&args.input).and_then(|mut f| f.read_to_end(&mut text))
    };
    if let Err(e) = read {
        eprintln!("faan ledger: cannot read {}: {e}", args.input.display());
        return ExitCode::FAILURE;
    }
    let played =
        parse_checked::<LedgerRequest>(&text, service.limits().json_depth).and_then(|request| {
            let played = service.ledger_request(&request)?;
            Ok(if args.json {
                (String::from_utf8_lossy(&played.body()).into_owned() + "\n").into_bytes()
            } else if args.csv {
                played.csv(crate::service::wire::render::Lang::En)
            } else {
                render_ledger(&played.response(), played.resolved.ruleset().name()).into_bytes()
            })
        });
    match played {
        Ok(out) => {
            use std::io::Write as _;
            let _ = std::io::stdout().write_all(&out);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{}", render_problem(&e));
            ExitCode::FAILURE
        }
    }
}

/// A signed amount: `+32`, `-32`, `0`.
fn signed(n: i64) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

/// The table of a match: one row per hand (round, dealer, result, faan,
/// each player's delta and balance), the next deal, the standings and the
/// transfers.
pub fn render_ledger(answer: &LedgerResponse<'_>, ruleset_name: &str) -> String {
    use std::fmt::Write as _;
    let players = answer.balances.names;
    let mut s = String::new();
    let _ = writeln!(s, "Ruleset: {} ({})", ruleset_name, answer.ruleset);
    let _ = writeln!(s, "Each player: the hand's points, then the balance.");
    let rows: Vec<[String; 5]> = answer
        .hands
        .iter()
        .map(|h| {
            let result = match h.result {
                HandResultDto::Win => {
                    let names: Vec<String> = h
                        .winners
                        .iter()
                        .map(|w| {
                            let declared = if w.source == "declared" {
                                " (declared)"
                            } else {
                                ""
                            };
                            if w.paid {
                                format!("{}{declared}", w.player)
                            } else {
                                format!("{}{declared} (unpaid)", w.player)
                            }
                        })
                        .collect();
                    format!("win {}", names.join(" + "))
                }
                HandResultDto::FalseWin => {
                    format!("false win {}", h.offender.unwrap_or_default())
                }
                HandResultDto::Draw => "draw".to_string(),
                HandResultDto::NewGame => {
                    // The players by seat, east first: the new game's first dealer on.
                    let mut by_seat = [""; 4];
                    for (n, w) in h.seats.names.iter().zip(h.seats.values) {
                        by_seat[w.index()] = n;
                    }
                    format!("new game {}", by_seat.join(" "))
                }
                HandResultDto::Rules => format!(
                    "rules {}",
                    h.house_rules
                        .map_or(String::new(), |v| serde_json::to_string(v)
                            .unwrap_or_default())
                ),
            };
            let faan: Vec<String> = h.winners.iter().map(|w| w.total_faan.to_string()).collect();
            [
                h.game.to_string(),
                h.round_wind.to_string(),
                h.dealer.to_string(),
                result,
                faan.join("+"),
            ]
        })
        .collect();
    let dealer_w = rows
        .iter()
        .map(|r| r[2].chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    let result_w = rows
        .iter()
        .map(|r| r[3].chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    // The players in request order (`ByPlayer` holds its values so).
    let cells: Vec<Vec<String>> = answer
        .hands
        .iter()
        .map(|h| {
            // A change of rules has no deltas: its balance alone.
            h.balances
                .values
                .iter()
                .enumerate()
                .map(|(p, b)| match &h.deltas {
                    Some(d) => format!("{:>5} {:>6}", signed(d.values[p]), b),
                    None => format!("{:>5} {:>6}", "", b),
                })
                .collect()
        })
        .collect();
    let cell_w: Vec<usize> = players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            cells
                .iter()
                .map(|c| c[i].chars().count())
                .chain([p.chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let _ = write!(
        s,
        "{:>4}  {:>4}  {:<5}  {}  {}  {:>4}",
        "hand",
        "game",
        "round",
        pad("dealer", dealer_w),
        pad("result", result_w),
        "faan"
    );
    for (p, w) in players.iter().zip(&cell_w) {
        let _ = write!(s, "  {:>w$}", p, w = *w);
    }
    s.push('\n');
    for (i, (r, c)) in rows.iter().zip(&cells).enumerate() {
        let _ = write!(
            s,
            "{:>4}  {:>4}  {:<5}  {}  {}  {:>4}",
            i,
            r[0],
            r[1],
            pad(&r[2], dealer_w),
            pad(&r[3], result_w),
            r[4]
        );
        for (cell, w) in c.iter().zip(&cell_w) {
            let _ = write!(s, "  {:>w$}", cell, w = *w);
        }
        s.push('\n');
    }
    let next = &answer.next;
    if next.complete {
        let _ = writeln!(s, "\nThe game is complete: a new game may follow.");
    } else {
        let _ = writeln!(
            s,
            "\nNext: {} round, {} deals (dealer streak {})",
            next.round_wind, next.dealer, next.dealer_streak
        );
    }
    let _ = writeln!(s, "\nStandings");
    for st in &answer.standings {
        let _ = writeln!(s, "  {}. {} {}", st.rank, st.player, signed(st.balance));
    }
    let transfers = |s: &mut String, title: &str, list: Vec<(&str, &str, String)>| {
        let _ = writeln!(s, "\n{title}");
        if list.is_empty() {
            let _ = writeln!(s, "  none: everyone is square");
        }
        for (from, to, amount) in list {
            let _ = writeln!(s, "  {from} pays {to} {amount}");
        }
    };
    let points = answer
        .transfers
        .iter()
        .map(|t| (t.from, t.to, t.amount.to_string()))
        .collect();
    transfers(&mut s, "Transfers", points);
    if let Some(m) = &answer.money {
        // The amount as the answer writes it (`12.5`).
        let money = m
            .transfers
            .iter()
            .map(|t| (t.from, t.to, t.amount.text().as_str().to_string()))
            .collect();
        transfers(&mut s, "Transfers in money", money);
    }
    let _ = writeln!(s, "\nStatistics");
    for st in &answer.stats {
        let biggest = st.biggest.map_or("-".to_string(), |b| {
            format!("{} faan (hand {})", b.faan, b.hand)
        });
        let _ = writeln!(
            s,
            "  {}: {} won, {} self-drawn, {} on a discard, dealt in {}, {} false win(s), biggest {biggest}",
            st.player, st.hands_won, st.self_draws, st.wins_on_discard, st.dealt_in, st.false_wins
        );
    }
    if let Some(h) = answer.hands.iter().rev().find(|h| h.in_force.is_some()) {
        let _ = writeln!(
            s,
            "\nHouse rules in force: {}",
            h.in_force
                .map_or(String::new(), |v| serde_json::to_string(v)
                    .unwrap_or_default())
        );
    }
    s
}
