/** One line of `altapay-check`'s output, and what each of its files answers with. */

/**
 * `ok`; `problem` (with what to do; exit code 1); `note` (worth knowing, not wrong); `skipped`
 * (not checked, and why: another problem decides it, e.g. credentials AltaPay refused).
 */
export type CheckStatus = "ok" | "problem" | "note" | "skipped"

export interface CheckLine {
  status: CheckStatus
  /** What was checked: "config", "plugin" or a registration's pp_altapay_<id>. */
  subject: string
  text: string
}

/** A line of one registration, before its subject is added. */
export type Finding = [CheckStatus, string]
