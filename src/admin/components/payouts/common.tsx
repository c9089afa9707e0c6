/** Small pieces the payouts pages share: the way back, the pager, the CSV link, empty and error states. */
import { Alert, Table, Text, toast } from "@medusajs/ui"
import type { ReactNode } from "react"
import { Link } from "react-router-dom"
import { useAdminText } from "../../i18n/use-admin-text"
import { adminUrl, downloadWithToken, tokenAuth } from "../../lib/admin-fetch"

/** "AltaPay payouts /" above a sub-page's heading, linking back to the list. */
export function PayoutsBackLink() {
  const { t } = useAdminText()
  return (
    <Text size="small">
      <Link to="/payouts" className="text-ui-fg-interactive hover:text-ui-fg-interactive-hover" data-testid="payouts-back-link">
        {t("AltaPay payouts")}
      </Link>{" "}
      /
    </Text>
  )
}

export function Pager({ count, pageSize, offset, onOffset, testId }: { count: number; pageSize: number; offset: number; onOffset: (offset: number) => void; testId: string }) {
  const pageCount = Math.max(Math.ceil(count / pageSize), 1)
  const pageIndex = Math.floor(offset / pageSize)
  return (
    <Table.Pagination
      data-testid={testId}
      count={count}
      pageSize={pageSize}
      pageIndex={pageIndex}
      pageCount={pageCount}
      canPreviousPage={offset > 0}
      canNextPage={offset + pageSize < count}
      previousPage={() => onOffset(Math.max(offset - pageSize, 0))}
      nextPage={() => onOffset(offset + pageSize)}
    />
  )
}

/** A CSV the server writes; followed by the browser itself under session auth, fetched with the token under JWT. */
export function CsvLink({ path, filename, testId }: { path: string; filename: string; testId: string }) {
  const { t } = useAdminText()
  return (
    <a
      href={adminUrl(path)}
      download={filename}
      data-testid={testId}
      className="txt-compact-small-plus text-ui-fg-interactive hover:text-ui-fg-interactive-hover"
      onClick={(event) => {
        if (!tokenAuth) return
        event.preventDefault()
        downloadWithToken(path, filename).catch((error: unknown) =>
          toast.error(t("common.downloadFailed"), { description: error instanceof Error ? error.message : String(error) })
        )
      }}
    >
      {t("common.downloadCsv")}
    </a>
  )
}

export function Notice({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div className="px-6 py-8">
      <Text size="small" className="text-ui-fg-subtle" data-testid={testId}>
        {children}
      </Text>
    </div>
  )
}

export function LoadError({ error }: { error: unknown }) {
  return (
    <div className="px-6 py-4">
      <Alert variant="error">{error instanceof Error ? error.message : String(error)}</Alert>
    </div>
  )
}

export function OrderLink({ orderId, testId }: { orderId: string; testId?: string }) {
  return (
    <Link to={`/orders/${orderId}`} data-testid={testId} className="text-ui-fg-interactive hover:text-ui-fg-interactive-hover">
      {orderId}
    </Link>
  )
}

export function FileLink({ fileId, children, testId }: { fileId: string; children: ReactNode; testId?: string }) {
  return (
    <Link to={`/payouts/${fileId}`} data-testid={testId} className="text-ui-fg-interactive hover:text-ui-fg-interactive-hover">
      {children}
    </Link>
  )
}
