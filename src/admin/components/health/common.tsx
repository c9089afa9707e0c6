/** Pieces every figure of the AltaPay page shares: a titled section, a row, and the runbook reference that settles it. */
import { Heading, Text } from "@medusajs/ui"
import type { ReactNode } from "react"
import { useAdminText } from "../../i18n/use-admin-text"

export function Section({ title, children, testId, action }: { title: string; children: ReactNode; testId: string; action?: ReactNode }) {
  return (
    <div className="px-6 py-4" data-testid={testId}>
      <div className="mb-2 flex items-center justify-between gap-x-4">
        <Heading level="h3">{title}</Heading>
        {action}
      </div>
      {children}
    </div>
  )
}

export function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="grid grid-cols-[14rem_1fr] gap-x-4 py-0.5">
      <Text size="small" className="text-ui-fg-subtle">
        {label}
      </Text>
      <Text size="small" data-testid={testId} className="break-all">
        {children}
      </Text>
    </div>
  )
}

/** The runbook section that says what to do (docs/operator.md ships with the plugin). */
export function Runbook({ section, testId }: { section: string; testId?: string }) {
  const { t } = useAdminText()
  return (
    <Text size="xsmall" className="text-ui-fg-subtle" data-testid={testId}>
      {t("health.runbook")}: <code>{section}</code>
    </Text>
  )
}
