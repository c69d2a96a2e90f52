//! The command-line scorer: `faan score`, `faan ledger` and `faan rulesets`.
//!
//! `faan score TILES [flags]` prints a readable breakdown of one hand;
//! `faan score --json [FILE]` reads score requests in the API's JSON shape
//! (one request, or JSON lines) and writes one result or problem per line,
//! exactly the bodies `POST /v1/score` would answer. `faan ledger FILE`
//! plays a match (the body of `POST /v1/ledger`) and prints its table,
//! formatted from the typed answer the endpoint serialises (`--json` prints
//! that answer's bytes). Only `--json` (and the ledger's input, a JSON
//! request) touches JSON: the flags become a typed hand and context for the
//! service's typed pipeline.

use crate::api::json::parse_checked;
use crate::api::ledger::HandResultDto;
use crate::api::{
    ApiError, HouseRulesDto, LedgerRequest, LedgerResponse, RulesetRef, RulesetSummary,
    ScoreResponse,
};
use crate::core::hand::{
    ContextSpec, HandSpec, MeldKind, MeldSpec, Replacement, RobbedKong, WinBy,
};
use crate::core::{Registry, Wind};
use crate::service::Service;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, ValueEnum};
use std::borrow::Cow;
use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use unicode_width::UnicodeWidthStr;

/// A flag whose value is one of the core's word enums, in clap's spelling of
/// its wire word (`robbing-kong` for `robbing_kong`): one table, the core's.
fn word<T>() -> impl TypedValueParser<Value = T>
where
    T: strum::VariantNames + std::str::FromStr + Clone + Send + Sync + 'static,
{
    PossibleValuesParser::new(T::VARIANTS.iter().map(|w| w.replace('_', "-")))
        .try_map(|s| s.replace('-', "_").parse::<T>().map_err(|_| s))
}

// Kept as clap's enum (not `word::<RobbedKong>`): its variants' help lines
// are in `faan score --help`, and the core's enum carries no clap help.
/// Which kind of kong a robbing-the-kong win robbed.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum RobbedKongArg {
    /// A pung promoted to a kong (the usual case).
    Added,
    /// A concealed kong: robbed only to complete thirteen orphans.
    Concealed,
}

/// Which names of a pattern to print.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    /// The English name.
    En,
    /// The Traditional Chinese name.
    Zh,
    /// Both.
    #[default]
    Both,
}

/// Options of `faan score`.
#[derive(Args, Debug, Clone)]
pub struct ScoreArgs {
    /// Concealed tiles, winning tile included: MPSZ (e.g. 234m567m345p22s789s), Unicode mahjong tiles (🀇🀈🀉...) or both mixed.
    #[arg(required_unless_present = "json")]
    pub tiles: Option<String>,
    /// Read score requests as JSON (one request, or one per line) from FILE or standard input, and write JSON lines.
    #[arg(long)]
    pub json: bool,
    /// With --json: the file to read ('-' or absent: standard input).
    #[arg(long, value_name = "FILE", requires = "json")]
    pub input: Option<PathBuf>,
    /// Ruleset id (see `faan rulesets`), or a ruleset document: a .json or .toml file (rulesets/README.md; `extends` works too).
    #[arg(long, short = 'r', default_value = "hkma", value_name = "ID|FILE")]
    pub ruleset: String,
    /// A declared meld as KIND:TILES, optionally :concealed or :added for a kong (e.g. pung:777z, kong:1111s:concealed). Repeatable.
    #[arg(long = "meld", value_name = "KIND:TILES[:concealed|:added]")]
    pub melds: Vec<String>,
    /// Bonus tiles, comma-separated or repeated (F1..F4, S1..S4).
    #[arg(long = "flowers", value_delimiter = ',')]
    pub flowers: Vec<String>,
    /// The winning tile (default: the last tile written).
    #[arg(long = "win", value_name = "TILE")]
    pub winning_tile: Option<String>,
    #[arg(long, value_parser = word::<WinBy>(), default_value = "self-draw")]
    pub win_by: WinBy,
    /// The seat that discarded (or added the robbed kong).
    #[arg(long, value_parser = word::<Wind>())]
    pub discarder: Option<Wind>,
    /// The winner's seat wind.
    #[arg(long, value_parser = word::<Wind>(), default_value = "east")]
    pub seat: Wind,
    /// The round (prevailing) wind.
    #[arg(long = "round", value_parser = word::<Wind>(), default_value = "east")]
    pub round: Wind,
    #[arg(long, value_parser = word::<Replacement>(), default_value = "none")]
    pub replacement: Replacement,
    #[arg(long)]
    pub double_kong: bool,
    #[arg(long)]
    pub last_tile: bool,
    #[arg(long)]
    pub heavenly: bool,
    #[arg(long)]
    pub earthly: bool,
    /// A seat that pays for everyone (包).
    #[arg(long, value_parser = word::<Wind>())]
    pub liable: Option<Wind>,
    #[arg(long)]
    pub flower_win: bool,
    /// With --win-by robbing-kong: the kind of kong robbed (a concealed kong only for thirteen orphans).
    #[arg(long, value_enum, default_value_t = RobbedKongArg::Added)]
    pub robbed_kong: RobbedKongArg,
    /// The other three copies of the winning tile are in sight (絕章).
    #[arg(long)]
    pub last_of_its_kind: bool,
    /// The replacement draw before the winning flower replacement (a second replacement in a row).
    #[arg(long, value_parser = word::<Replacement>(), default_value = "none")]
    pub first_replacement: Replacement,
    /// Won on a discard before a draw of one's own (人和; a non-dealer in the first go-around).
    #[arg(long)]
    pub first_go_around: bool,
    /// House rules as the API's JSON object, e.g. '{"min_faan": 0, "points": "full_spicy"}'.
    #[arg(long, value_name = "JSON")]
    pub house_rules: Option<String>,
    /// Pattern names to print: English, Traditional Chinese, or both.
    #[arg(long, value_enum, default_value_t = Lang::Both)]
    pub lang: Lang,
}

impl ScoreArgs {
    /// The hand the flags describe, its text borrowed from them
    /// (`winning`: the winning tile worked out from the tiles when `--win`
    /// is not given).
    fn hand<'a>(&'a self, winning: Option<&'a str>) -> Result<HandSpec<&'a str>, String> {
        let melds = self
            .melds
            .iter()
            .map(|m| meld_arg(m))
            .collect::<Result<_, _>>()?;
        let winning_tile = match &self.winning_tile {
            Some(t) => Some(t.as_str()),
            // A flower win has no winning tile unless one is given.
            None if self.flower_win => None,
            None => winning,
        };
        Ok(HandSpec {
            tiles: self.tiles.as_deref().unwrap_or_default(),
            melds,
            winning_tile,
            flowers: self.flowers.iter().map(String::as_str).collect(),
        })
    }

    /// The circumstances of the win the flags describe.
    fn context(&self) -> ContextSpec {
        ContextSpec {
            win_by: self.win_by,
            seat_wind: self.seat,
            round_wind: self.round,
            discarder: self.discarder,
            replacement: self.replacement,
            double_kong: self.double_kong,
            last_tile: self.last_tile,
            heavenly: self.heavenly,
            earthly: self.earthly,
            liable: self.liable,
            flower_win: self.flower_win,
            robbed_kong: match self.robbed_kong {
                RobbedKongArg::Added => RobbedKong::Added,
                RobbedKongArg::Concealed => RobbedKong::Concealed,
            },
            last_of_its_kind: self.last_of_its_kind,
            first_replacement: self.first_replacement,
            first_go_around: self.first_go_around,
        }
    }
}

/// `--meld KIND:TILES[:concealed|:added]` as a meld.
fn meld_arg(m: &str) -> Result<MeldSpec<&str>, String> {
    let (kind, tiles, concealed, added) = split_meld(m)?;
    let kind: MeldKind = kind
        .parse()
        .map_err(|_| format!("--meld {m}: unknown kind {kind:?} (chow, pung or kong)"))?;
    Ok(MeldSpec {
        kind,
        tiles,
        concealed,
        added,
    })
}

/// `--house-rules`: the API's JSON object of house rules.
fn house_rules_arg(text: Option<&str>) -> Result<Option<HouseRulesDto>, String> {
    text.map(|h| serde_json::from_str(h).map_err(|e| format!("--house-rules: {e}")))
        .transpose()
}

/// `--meld KIND:TILES[:concealed|:added]` as its kind, tiles and flags.
fn split_meld(m: &str) -> Result<(&str, &str, bool, bool), String> {
    match m.split(':').collect::<Vec<_>>().as_slice() {
        [kind, tiles] => Ok((kind, tiles, false, false)),
        [kind, tiles, "concealed"] => Ok((kind, tiles, true, false)),
        [kind, tiles, "added"] => Ok((kind, tiles, false, true)),
        [_, _, other] => Err(format!(
            "--meld {m}: unknown option {other:?} (concealed or added)"
        )),
        _ => Err(format!(
            "--meld {m}: write KIND:TILES[:concealed|:added], e.g. pung:777z"
        )),
    }
}

/// `--ruleset`: an id, or the ruleset document in a `.json` or `.toml` file
/// (resolved as a request's document is: the same cache, the same
/// problems under `/ruleset`).
enum RulesetArg<'a> {
    Id(&'a str),
    Document(Box<serde_json::value::RawValue>),
}

impl<'a> RulesetArg<'a> {
    fn read(arg: &'a str) -> Result<Self, String> {
        let path = std::path::Path::new(arg);
        let ext = path.extension().and_then(|e| e.to_str());
        if !matches!(ext, Some("json" | "toml")) {
            return Ok(RulesetArg::Id(arg));
        }
        let text = std::fs::read_to_string(path).map_err(|e| format!("--ruleset {arg}: {e}"))?;
        let doc: serde_json::Value = if ext == Some("json") {
            serde_json::from_str(&text).map_err(|e| format!("--ruleset {arg}: not JSON: {e}"))?
        } else {
            crate::core::ruleset::toml_document(&text)
                .map_err(|e| format!("--ruleset {arg}: {e}"))?
        };
        serde_json::value::to_raw_value(&doc)
            .map(RulesetArg::Document)
            .map_err(|e| format!("--ruleset {arg}: {e}"))
    }

    fn as_ref(&self) -> RulesetRef<'_> {
        match self {
            RulesetArg::Id(id) => RulesetRef::Id(Cow::Borrowed(id)),
            RulesetArg::Document(raw) => RulesetRef::Document(raw),
        }
    }
}

/// The last tile written, as MPSZ text (`"234m55p"` → `"5p"`, `"🀇🀈🀉🀄"` → `"7z"`).
fn last_tile_written(tiles: &str) -> Option<String> {
    if let Ok(parsed) = crate::core::tile::parse_tiles(tiles) {
        return parsed.last().map(ToString::to_string);
    }
    // Tiles that do not parse (validation says why): the last tile recognisable.
    let chars: Vec<char> = tiles.chars().filter(|c| !c.is_whitespace()).collect();
    (0..chars.len()).rev().find_map(|i| {
        if let Some(t) = crate::core::tile::unicode_tile(chars[i]) {
            return Some(t.to_string());
        }
        let digit = chars[..i].last().filter(|d| d.is_ascii_digit());
        digit
            .filter(|_| "mpsz".contains(chars[i]))
            .map(|d| format!("{d}{}", chars[i]))
    })
}

/// The built-in rulesets, or the exit code after reporting why they failed to load.
fn builtin() -> Result<Registry, ExitCode> {
    Registry::builtin().map_err(|e| {
        eprintln!("faan: {e}");
        ExitCode::FAILURE
    })
}

/// `faan score`: the flags as a typed hand, context and ruleset, through
/// `Service::score_hand` (no JSON written or read on the way).
pub fn run_score(args: &ScoreArgs) -> ExitCode {
    let service = match builtin() {
        Ok(r) => Service::uncached(r),
        Err(code) => return code,
    };
    if args.json {
        return run_json(&service, args);
    }
    let usage = |e: String| {
        eprintln!("faan score: {e}");
        ExitCode::from(2)
    };
    let ruleset = match RulesetArg::read(&args.ruleset) {
        Ok(r) => r,
        Err(e) => return usage(e),
    };
    let house_rules = match house_rules_arg(args.house_rules.as_deref()) {
        Ok(h) => h,
        Err(e) => return usage(e),
    };
    let winning = last_tile_written(args.tiles.as_deref().unwrap_or_default());
    let hand = match args.hand(winning.as_deref()) {
        Ok(h) => h,
        Err(e) => return usage(e),
    };
    match service.score_hand(&ruleset.as_ref(), &house_rules, &hand, &args.context()) {
        Ok(scored) => {
            let name = &scored.resolved.ruleset().name();
            print!("{}", render(&scored.response(), name, args.lang));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{}", render_problem(&e));
            ExitCode::FAILURE
        }
    }
}

fn run_json(service: &Service, args: &ScoreArgs) -> ExitCode {
    let mut text = String::new();
    let read = match args.input.as_deref() {
        None => std::io::stdin().read_to_string(&mut text),
        Some(p) if p.as_os_str() == "-" => std::io::stdin().read_to_string(&mut text),
        Some(p) => std::fs::File::open(p).and_then(|mut f| f.read_to_string(&mut text)),
    };
    if let Err(e) = read {
        eprintln!("faan score --json: cannot read input: {e}");
        return ExitCode::FAILURE;
    }
    // One JSON document, or JSON lines.
    let items: Vec<&str> = if serde_json::from_str::<serde_json::Value>(&text).is_ok() {
        vec![text.as_str()]
    } else {
        text.lines().filter(|l| !l.trim().is_empty()).collect()
    };
    let total = items.len();
    let progress = total >= 200 && std::io::stderr().is_terminal();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = 0usize;
    for (i, item) in items.iter().enumerate() {
        let line = match service.score_body(item.as_bytes()) {
            Ok((body, _)) => body.to_vec(),
            Err(e) => {
                failed += 1;
                e.to_json()
            }
        };
        if out
            .write_all(&line)
            .and_then(|()| out.write_all(b"\n"))
            .is_err()
        {
            return ExitCode::FAILURE;
        }
        if progress && (i % 100 == 0 || i + 1 == total) {
            let done = (i + 1) * 30 / total;
            eprint!(
                "\r[{}{}] {}/{} ",
                "#".repeat(done),
                " ".repeat(30 - done),
                i + 1,
                total
            );
        }
    }
    if progress {
        eprintln!();
    }
    let _ = out.flush();
    if failed > 0 {
        eprintln!("faan score --json: {failed} of {total} request(s) did not score (their lines are problems)");
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    }
}

/// A readable breakdown of a score response.
pub fn render(resp: &ScoreResponse, ruleset_name: &str, lang: Lang) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(s, "Ruleset: {} ({})", ruleset_name, resp.ruleset);
    let _ = writeln!(s, "Readings considered: {}", resp.decompositions.len());
    for (i, d) in resp.decompositions.iter().enumerate() {
        let mark = if i == resp.chosen { "*" } else { " " };
        let mut shape = d
            .sets
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        if let Some(p) = &d.pair {
            shape.push_str(&format!(" | {p}"));
        }
        if let Some(pairs) = &d.pairs {
            shape = pairs
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ");
        }
        if let (Some(singles), Some(p)) = (&d.singles, &d.pair) {
            let singles: Vec<String> = singles.iter().map(ToString::to_string).collect();
            shape = format!("{} | {p}", singles.join(" "));
        }
        let _ = writeln!(
            s,
            " {mark} {}. [{}] {shape}: {} faan",
            i + 1,
            d.form,
            d.total_faan
        );
    }
    let _ = writeln!(s, "Lines:");
    if resp.lines.is_empty() {
        let _ = writeln!(s, "  (none)");
    }
    for l in &resp.lines {
        let name = match lang {
            Lang::En => pad(l.name, 36),
            Lang::Zh => pad(l.name_zh, 36),
            Lang::Both => format!("{}{}", pad(l.name, 26), pad(l.name_zh, 10)),
        };
        let _ = writeln!(s, "  {name} {:>3}", l.faan);
    }
    let limit = if resp.limit_hand {
        ", a limit hand"
    } else {
        ""
    };
    let _ = writeln!(
        s,
        "Total: {} faan (raw {}, limit {}, minimum {}{limit})",
        resp.total_faan, resp.raw_faan, resp.limit, resp.min_faan
    );
    if !resp.meets_minimum {
        let _ = writeln!(
            s,
            "Below the minimum by {} faan: the hand may not be declared; nobody pays.",
            resp.missing_faan
        );
    }
    let _ = writeln!(s, "Base points: {}", resp.base_points);
    let p = &resp.payments;
    let _ = writeln!(
        s,
        "Payments: east {:+}  south {:+}  west {:+}  north {:+}",
        p.east, p.south, p.west, p.north
    );
    if let Some(mp) = resp.money.as_ref().and_then(|m| m.payments.as_ref()) {
        let _ = writeln!(
            s,
            "Money (USD): east {}  south {}  west {}  north {}",
            mp.east, mp.south, mp.west, mp.north
        );
    }
    s
}

/// `text` padded with spaces to `cols` terminal columns (a CJK character takes two).
fn pad(text: &str, cols: usize) -> String {
    format!("{text}{}", " ".repeat(cols.saturating_sub(text.width())))
}

fn render_problem(e: &ApiError) -> String {
    let p = e.problem();
    let mut s = format!("error: {} ({})\n{}", p.title, p.status, p.detail);
    for err in &p.errors {
        s.push_str(&format!("\n  {}: {}", err.pointer, err.message));
    }
    s
}

/// Options of `faan rulesets`.
#[derive(Args, Debug, Clone)]
pub struct RulesetsArgs {
    /// Print the list as JSON (the body of GET /v1/rulesets).
    #[arg(long)]
    pub json: bool,
}

/// `faan rulesets`.
pub fn run_rulesets(args: &RulesetsArgs) -> ExitCode {
    let registry = match builtin() {
        Ok(r) => r,
        Err(code) => return code,
    };
    if args.json {
        let list: Vec<RulesetSummary> = registry
            .all()
            .iter()
            .map(|r| RulesetSummary::from(r.as_ref()))
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&list).unwrap_or_default()
        );
        return ExitCode::SUCCESS;
    }
    println!(
        "{:<20} {:>4} {:>6}  {:<44} source",
        "id", "min", "limit", "name"
    );
    for r in registry.all() {
        println!(
            "{:<20} {:>4} {:>6}  {:<44} {}",
            r.id(),
            r.min_faan(),
            r.limit(),
            r.name(),
            r.source().join(", ")
        );
    }
    ExitCode::SUCCESS
}

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
                played.csv()
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
    let rows: Vec<[String; 4]> = answer
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
                HandResultDto::Rules => format!(
                    "rules {}",
                    h.house_rules.map_or(String::new(), |v| v.to_string())
                ),
            };
            let faan: Vec<String> = h.winners.iter().map(|w| w.total_faan.to_string()).collect();
            [
                h.round_wind.to_string(),
                h.dealer.to_string(),
                result,
                faan.join("+"),
            ]
        })
        .collect();
    let dealer_w = rows
        .iter()
        .map(|r| r[1].chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    let result_w = rows
        .iter()
        .map(|r| r[2].chars().count())
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
        "{:>4}  {:<5}  {}  {}  {:>4}",
        "hand",
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
            "{:>4}  {:<5}  {}  {}  {:>4}",
            i,
            r[0],
            pad(&r[1], dealer_w),
            pad(&r[2], result_w),
            r[3]
        );
        for (cell, w) in c.iter().zip(&cell_w) {
            let _ = write!(s, "  {:>w$}", cell, w = *w);
        }
        s.push('\n');
    }
    let next = &answer.next;
    if next.complete {
        let _ = writeln!(s, "\nThe match is complete.");
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
            h.in_force.map_or(String::new(), |v| v.to_string())
        );
    }
    s
}

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
