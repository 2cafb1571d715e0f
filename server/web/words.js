// One vocabulary (issue 22, item 2), used the same way in the page, the CLI and the README:
//   revenue = what the trains earn for the dividend (destination bonuses included),
//   subsidy = the mine's payment to the company's treasury,
//   income  = revenue + subsidy.
// The objective says which of them "the optimum" maximises and what a run "left on the
// table": the dividend-only objective compares revenues (what 18xx.games' auto-router
// maximises), the dividend + treasury objective compares incomes.

export const OBJECTIVES = {
  total: { proto: "OBJECTIVE_TOTAL", label: "dividend + treasury (income)", figure: "income" },
  revenue: { proto: "OBJECTIVE_REVENUE", label: "dividend only (revenue)", figure: "revenue" },
};

// Money as the shown game's title writes it (issue 25): GetInfo's TitleInfo.currency_format,
// a fact of the title's data ("¥%s" for 1888, "$%s" for 1830), "%s" standing for the number.
let currencyFormat = "%s";

// Whether the shown title pays subsidies (GetInfo's TitleInfo.subsidies, a fact of its data):
// without them (1830) income is revenue, so the page names revenue alone, one name for it,
// and shows no treasury, no subsidy and no objective to choose (issue 34).
let subsidies = true;

/** The shown title pays subsidies (``true``) or not. */
export function setSubsidies(paid) {
  subsidies = paid !== false;
}
export const hasSubsidies = () => subsidies;

/** The figure the objective compares, as the page names it: "income" or "revenue". */
export const figureWord = (objective) => (subsidies ? OBJECTIVES[objective].figure : "revenue");

/** Write amounts from now on in ``format`` (the title of the log or state on screen). */
export function setCurrency(format) {
  currencyFormat = format && format.includes("%s") ? format : "%s";
}

/** An amount in the title's money: "¥40", "$40". */
export const money = (n) => currencyFormat.replace("%s", String(n || 0));

/** A signed amount: "+¥20", "−$20", "¥0". */
export const signedMoney = (n) => (n > 0 ? "+" : n < 0 ? "−" : "") + money(Math.abs(n || 0));

/** Whether the replay solved this run (protobuf JSON leaves unset optima out). */
export const solved = (run) => run.optimalRevenue !== undefined || run.optimalSubsidy !== undefined;

/** The figure a run shows for the objective: revenue, or income (revenue + subsidy). */
export function figure(objective, revenue, subsidy) {
  return objective === "revenue" ? (revenue || 0) : (revenue || 0) + (subsidy || 0);
}

/**
 * What the optimum does better than the recorded run, for the objective: the dividend lost
 * (optimal − recorded revenue), the treasury lost (optimal − recorded subsidy) and what was
 * left on the table (max(0, dividend lost) for revenue; max(0, their sum) for income).
 * The service's own fields are used when it sends them (ReplayedRun.dividend_lost …).
 */
export function shortfall(objective, run) {
  if (!solved(run)) return null;
  const dividend = run.dividendLost !== undefined ? run.dividendLost
    : (run.optimalRevenue || 0) - (run.recordedRevenue || 0);
  const treasury = run.treasuryLost !== undefined ? run.treasuryLost
    : (run.optimalSubsidy || 0) - (run.recordedSubsidy || 0);
  const left = run.leftOnTable !== undefined ? run.leftOnTable
    : Math.max(0, objective === "revenue" ? dividend : dividend + treasury);
  return { dividend, treasury, left };
}

/** "¥550 + ¥40 subsidy" (revenue and subsidy, one meaning each). */
export function revenueAndSubsidy(revenue, subsidy) {
  return subsidy ? `${money(revenue)} revenue + ${money(subsidy)} subsidy` : `${money(revenue)} revenue`;
}

/** A figure with its parts: "income ¥590 (¥550 revenue + ¥40 subsidy)" or "revenue ¥570". */
export function describe(objective, revenue, subsidy) {
  if (!subsidies) return `revenue ${money(revenue)}`;
  if (objective === "revenue") {
    return `revenue ${money(revenue)}` + (subsidy ? ` (and ${money(subsidy)} subsidy)` : "");
  }
  return `income ${money(figure(objective, revenue, subsidy))}` +
    (subsidy ? ` (${revenueAndSubsidy(revenue, subsidy)})` : "");
}

/** What a negative "lost" figure means (issue 34: shown unexplained before). */
export const NEGATIVE = "A negative figure lost is one the optimum gives up: it earns that much less " +
  "there (dividend or treasury) to earn more in all.";

/** An amount that may be negative: "¥20", "−¥240". */
const amount = (n) => (n < 0 ? "−" : "") + money(Math.abs(n || 0));

/** The runs list's summary: the final scores, and what the runs left on the table for the
 * objective (the service's own count when it sends one: ReplayGameResponse.left_on_table). */
export function summary(objective, report, list, stopped, stoppedAt, errors) {
  let count = 0;
  let left = 0;
  let dividend = 0;
  let treasury = 0;
  for (const run of list) {
    const s = shortfall(objective, run);
    if (s && s.left > 0) {
      count += 1;
      left += s.left;
      dividend += s.dividend;
      treasury += s.treasury;
    }
  }
  const short = report.leftOnTable; // the service's own count, when it sends one
  if (short) {
    count = short.runs || 0;
    left = short.amount || 0;
    dividend = short.dividendLost || 0;
    treasury = short.treasuryLost || 0;
  }
  const word = figureWord(objective);
  return (stoppedAt !== undefined ? "The replay did not reach the end of the game: no final scores. "
    : `Final scores ${report.scoresMatch ? "match" : "do not match"} the log. `) +
    (subsidies ? `Optimum for ${OBJECTIVES[objective].label}: ` : "The optimum: ") +
    `${money(left)} of ${word} left on the table in ${count} run${count === 1 ? "" : "s"}` +
    (count && subsidies ? ` (dividend lost ${amount(dividend)}, treasury lost ${amount(treasury)}).` : ".") +
    (count && subsidies && (dividend < 0 || treasury < 0) ? ` ${NEGATIVE}` : "") +
    (errors.length && !stopped ? " Problems: " + errors.join("; ") : "");
}

/** The run's figures in one line, for the objective, with what was left on the table. */
export function incomeLine(objective, run) {
  const s = shortfall(objective, run);
  const parts = [`recorded ${describe(objective, run.recordedRevenue, run.recordedSubsidy)}`];
  parts.push(solved(run) ? `optimal ${describe(objective, run.optimalRevenue, run.optimalSubsidy)}`
    : "optimal: not solved");
  if (s && s.left > 0 && !subsidies) {
    parts.push(`left on the table ${money(s.left)}`);
  } else if (s && s.left > 0) {
    // the optimum against the recorded run: dividend (revenue) and treasury (subsidy)
    parts.push(`left on the table ${money(s.left)} (dividend ${signedMoney(s.dividend)}, treasury ${signedMoney(s.treasury)})`);
    if (s.dividend < 0 || s.treasury < 0) parts.push(NEGATIVE);
  } else if (s && (s.dividend || s.treasury)) {
    parts.push(`the optimum for ${OBJECTIVES[objective].label} would change the dividend by ${signedMoney(s.dividend)} and the treasury by ${signedMoney(s.treasury)}: nothing left on the table`);
  }
  return parts.join(" · ");
}
