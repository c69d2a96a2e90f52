//! `faan analyze`: the questions before the win, as tables.

use super::*;

/// Options of `faan analyze`.
#[derive(Args, Debug, Clone)]
pub struct AnalyzeArgs {
    /// Concealed tiles, no winning tile: 13 waiting for a draw or 14 about to discard (three fewer per declared meld). MPSZ, Unicode tiles or both.
    pub tiles: String,
    /// Tiles in sight elsewhere (discards, other players' melds): they are not counted as still to come.
    #[arg(long, value_name = "TILES")]
    pub seen: Option<String>,
    /// Draws still to come (1 to 30): each discard's chance to win within them, and the points expected.
    #[arg(long, value_name = "N")]
    pub draws: Option<u32>,
    /// With --draws: count self-drawn wins only (not wins on the others' discards).
    #[arg(long, requires = "draws")]
    pub self_draw_only: bool,
    /// With --draws: the player may keep a draw that does not lower shanten and throw another tile.
    #[arg(long, requires = "draws")]
    pub hand_changes: bool,
    /// With --draws: the player may also throw a tile that raises shanten by one.
    #[arg(long, requires = "draws")]
    pub shanten_down: bool,
    /// Ruleset id (see `faan rulesets`), or a ruleset document: a .json or .toml file.
    #[arg(long, short = 'r', default_value = "hkma", value_name = "ID|FILE")]
    pub ruleset: String,
    /// The player's seat wind.
    #[arg(long = "seat-wind", visible_alias = "seat", value_parser = word::<Wind>(), default_value = "east")]
    pub seat_wind: Wind,
    /// The round (prevailing) wind.
    #[arg(long = "round-wind", visible_alias = "round", value_parser = word::<Wind>(), default_value = "east")]
    pub round_wind: Wind,
    /// The win would be on the last wall tile (or the discard after it).
    #[arg(long)]
    pub last_tile: bool,
    /// A declared meld as KIND:TILES, optionally :concealed or :added for a kong (e.g. pung:777z). Repeatable.
    #[arg(long = "meld", value_name = "KIND:TILES[:concealed|:added]")]
    pub melds: Vec<String>,
    /// Bonus tiles, comma-separated or repeated (F1..F4, S1..S4).
    #[arg(long = "flowers", value_delimiter = ',')]
    pub flowers: Vec<String>,
    /// House rules as the API's JSON object, e.g. '{"min_faan": 1}'.
    #[arg(
        long = "house-rules",
        visible_alias = "house-rule",
        value_name = "JSON"
    )]
    pub house_rules: Option<String>,
    /// Print the JSON answer of POST /v1/analyze instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// What the chances assume, said beside them.
const ASSUMED: &str = "(assumes nobody else wins, calls or declares first; docs/analysis.md)";

/// `faan analyze`: the typed request built from the flags, through
/// `Service::analyze_typed` (no JSON body written or read on the way).
pub fn run_analyze(args: &AnalyzeArgs) -> ExitCode {
    use crate::api::{analyze::ChancesRequest, AnalyzeRequest, HandDto, MeldDto, WaitContextDto};
    let service = match builtin() {
        Ok(r) => Service::uncached(r),
        Err(code) => return code,
    };
    let usage = |e: String| {
        eprintln!("faan analyze: {e}");
        ExitCode::from(2)
    };
    // A ruleset document from a file goes in as the request's own document would.
    let ruleset = match RulesetArg::read(&args.ruleset) {
        Ok(r) => r,
        Err(e) => return usage(e),
    };
    let mut melds = Vec::new();
    for m in &args.melds {
        let meld = match meld_arg(m) {
            Ok(meld) => meld,
            Err(e) => return usage(e),
        };
        melds.push(MeldDto {
            kind: meld.kind,
            tiles: Cow::Borrowed(meld.tiles),
            concealed: meld.concealed,
            added: meld.added,
        });
    }
    let house_rules = match house_rules_arg(args.house_rules.as_deref()) {
        Ok(h) => h,
        Err(e) => return usage(e),
    };
    let request = AnalyzeRequest {
        ruleset: ruleset.as_ref(),
        hand: HandDto {
            tiles: Cow::Borrowed(&args.tiles),
            melds,
            winning_tile: None,
            flowers: args
                .flowers
                .iter()
                .map(|f| Cow::Borrowed(f.as_str()))
                .collect(),
        },
        context: WaitContextDto {
            seat_wind: args.seat_wind,
            round_wind: args.round_wind,
            last_tile: args.last_tile,
        },
        house_rules,
        seen: args.seen.as_deref().map(Cow::Borrowed),
        chances: args.draws.map(|draws| ChancesRequest {
            draws,
            discards: !args.self_draw_only,
            hand_changes: args.hand_changes,
            shanten_down: args.shanten_down,
            every_discard: true,
        }),
    };
    match service.analyze_typed(&request) {
        Ok(a) if args.json => {
            println!(
                "{}",
                String::from_utf8_lossy(&crate::service::to_json(&a.response()))
            );
            ExitCode::SUCCESS
        }
        Ok(a) => {
            let r = a.resolved.ruleset();
            print!("{}", render_analysis(&a.response(), r.name(), r.min_faan()));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{}", render_problem(&e));
            ExitCode::FAILURE
        }
    }
}

/// Columns padded to their widest cell (CJK counted two wide), two spaces apart.
fn columns(rows: &[Vec<String>]) -> String {
    let n = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..n)
        .map(|i| {
            rows.iter()
                .filter_map(|r| r.get(i))
                .map(|c| c.width())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut s = String::new();
    for r in rows {
        let line: String = r.iter().zip(&widths).map(|(c, w)| pad(c, w + 2)).collect();
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s
}

/// The best win on one wait, marked against the minimum: `3` a win on a
/// discard meets it, `3+` only a self-draw does, `2*` no way of winning does.
fn wait_faan(w: &crate::api::WaitDto<'_>) -> String {
    let best = [&w.discard, &w.self_draw]
        .into_iter()
        .flatten()
        .map(|s| s.total_faan)
        .max();
    let meets = |s: &Option<crate::api::WaitScore<'_>>| s.as_ref().is_some_and(|s| s.meets_minimum);
    let mark = if meets(&w.discard) {
        ""
    } else if meets(&w.self_draw) {
        "+"
    } else {
        "*"
    };
    best.map_or_else(|| "-".into(), |f| format!("{f}{mark}"))
}

/// Waits and their faan, each wait over its faan (`6p 9p` / `3+ 3+`).
fn waits_cells(waits: &[crate::api::WaitDto<'_>]) -> (String, String) {
    let mut tiles = Vec::new();
    let mut faan = Vec::new();
    for w in waits {
        let f = wait_faan(w);
        let width = f.len().max(w.tile.len());
        tiles.push(format!("{:<width$}", w.tile));
        faan.push(format!("{f:<width$}"));
    }
    (tiles.join(" "), faan.join(" "))
}

fn percent(p: f64) -> String {
    format!("{:.1}%", p * 100.0)
}

fn acceptance_cell(tiles: &[crate::api::analyze::AcceptedTile], count: u32) -> String {
    let kinds: Vec<crate::core::Tile> = tiles
        .iter()
        .filter_map(|a| crate::core::tile::parse_tiles(&a.tile).ok())
        .flatten()
        .collect();
    if kinds.is_empty() {
        return count.to_string();
    }
    format!("{count} ({})", crate::core::tile::format_tiles(&kinds))
}

/// What the marks of the faan column mean, where one is used.
fn faan_marks(s: &mut String, cells: &[&str], min_faan: u32, star: &str) {
    use std::fmt::Write as _;
    if cells.iter().any(|c| c.contains('+')) {
        let _ = writeln!(
            s,
            "+  meets the minimum ({min_faan} faan) only when self-drawn 自摸先夠番"
        );
    }
    if cells.iter().any(|c| c.contains('*')) {
        let _ = writeln!(s, "*  below the minimum ({min_faan} faan) {star} 唔夠番");
    }
}

/// The readable analysis, in English and Chinese, read from the answer of
/// `POST /v1/analyze` (the one wire view decides every value).
pub fn render_analysis(
    resp: &crate::api::AnalyzeResponse<'_>,
    ruleset_name: &str,
    min_faan: u32,
) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Ruleset: {ruleset_name} ({}), minimum {min_faan} faan",
        resp.ruleset
    );
    let sh = &resp.shanten;
    let mut forms = vec![format!("standard {}", sh.standard)];
    if let Some(n) = sh.seven_pairs {
        forms.push(format!("seven pairs {n}"));
    }
    if let Some(n) = sh.thirteen_orphans {
        forms.push(format!("thirteen orphans {n}"));
    }
    let state = match sh.best {
        -1 => " 食糊 a complete hand",
        0 => " 聽牌 ready",
        _ => "",
    };
    let _ = writeln!(s, "向聽 Shanten: {}{state} ({})", sh.best, forms.join(", "));
    if let Some(c) = &resp.complete {
        let meets = if c.meets_minimum {
            "meets the minimum 夠番"
        } else {
            "below the minimum 唔夠番"
        };
        let _ = writeln!(
            s,
            "食糊 Declared now (self-drawn): {} faan, {meets}, base points {}",
            c.total_faan, c.base_points
        );
    }
    if let Some(discards) = &resp.discards {
        let chances = discards.iter().any(|d| d.chances.is_some());
        let _ = writeln!(s, "\n打邊隻 Which tile to discard, best first:");
        let mut rows = vec![
            vec!["打", "向聽", "有效牌", "聽", "番"],
            vec!["discard", "shanten", "acceptance", "waits", "faan"],
        ]
        .into_iter()
        .map(|r| r.into_iter().map(String::from).collect::<Vec<_>>())
        .collect::<Vec<_>>();
        if chances {
            rows[0].extend(["食糊機會".into(), "預計得分".into()]);
            rows[1].extend(["win chance".into(), "expected points".into()]);
        }
        let mut faan_cells = Vec::new();
        for d in discards {
            let (waits, faan) = d
                .waits
                .as_deref()
                .map_or(("-".into(), "-".into()), waits_cells);
            let mut row = vec![
                d.tile.clone(),
                d.shanten.to_string(),
                acceptance_cell(&d.acceptance, d.acceptance_count),
                waits,
                faan.clone(),
            ];
            if chances {
                match &d.chances {
                    Some(c) => {
                        row.push(c.win.last().map_or_else(String::new, |p| percent(*p)));
                        row.push(format!("{:.2}", c.expected_points));
                    }
                    None => row.extend(["-".into(), "-".into()]),
                }
            }
            faan_cells.push(faan);
            rows.push(row);
        }
        s.push_str(&columns(&rows));
        let cells: Vec<&str> = faan_cells.iter().map(String::as_str).collect();
        faan_marks(&mut s, &cells, min_faan, "however it is won");
        if let Some(c) = discards.iter().find_map(|d| d.chances.as_ref()) {
            let _ = writeln!(
                s,
                "食糊機會 win chance: within {} draws; 預計得分 expected points: the ruleset's points this seat collects.",
                c.win.len()
            );
            let _ = writeln!(s, "{ASSUMED}");
        }
    }
    if let (Some(acc), Some(count)) = (&resp.acceptance, resp.acceptance_count) {
        let each: Vec<String> = acc
            .iter()
            .map(|a| format!("{}×{}", a.tile, a.unseen))
            .collect();
        let each = if each.is_empty() {
            "none".to_string()
        } else {
            each.join(" ")
        };
        let _ = writeln!(s, "有效牌 Acceptance: {count} tiles unseen: {each}");
    }
    if let Some(waits) = &resp.waits {
        let _ = writeln!(s, "\n聽 Waits:");
        let score = |w: &Option<crate::api::WaitScore<'_>>| {
            w.as_ref().map_or_else(
                || "-".to_string(),
                |w| format!("{}{}", w.total_faan, if w.meets_minimum { "" } else { "*" }),
            )
        };
        let mut rows: Vec<Vec<String>> = vec![
            vec!["聽".into(), "剩".into(), "番 食糊".into(), "番 自摸".into()],
            vec![
                "wait".into(),
                "unseen".into(),
                "on a discard".into(),
                "self-drawn".into(),
            ],
        ];
        for w in waits {
            rows.push(vec![
                w.tile.clone(),
                w.unseen.to_string(),
                score(&w.discard),
                score(&w.self_draw),
            ]);
        }
        s.push_str(&columns(&rows));
        let marks: Vec<String> = waits
            .iter()
            .flat_map(|w| [score(&w.discard), score(&w.self_draw)])
            .collect();
        let cells: Vec<&str> = marks.iter().map(String::as_str).collect();
        faan_marks(&mut s, &cells, min_faan, "won that way");
    }
    if let Some(c) = &resp.chances {
        let _ = writeln!(
            s,
            "食糊機會 Win chance within {} draws: {} (聽牌 ready: {}); 預計得分 expected points {:.2}",
            c.win.len(),
            c.win.last().map_or_else(String::new, |p| percent(*p)),
            c.ready.last().map_or_else(String::new, |p| percent(*p)),
            c.expected_points
        );
        let _ = writeln!(s, "{ASSUMED}");
    }
    s
}
