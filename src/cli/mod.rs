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

mod analyze;
mod ledger;

pub use analyze::{render_analysis, run_analyze, AnalyzeArgs};
pub use ledger::{render_ledger, run_ledger, LedgerArgs};
