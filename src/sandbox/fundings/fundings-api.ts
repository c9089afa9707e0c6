/**
 * fundingList and fundingDownload on the sandbox's merchant API (Basic auth checked by the
 * gateway dispatcher): the list pages its funding files 100 at a time, oldest first, and each
 * Funding's DownloadLink points back here for the file's CSV.
 */
import type { Exchange } from "../env"
import { GatewayErrorCode } from "../gateway/gateway-errors"
import { apiResponse } from "../gateway/gateway-xml"
import { xml, type Reply } from "../http"
import { amountText, type StoredFunding } from "./fundings"
import { generatedCsvChunks, type GeneratedFundingSpec } from "./generated-fundings"
import { el, textEl } from "../gateway/xml"

const downloadLink = (ex: Exchange, file: StoredFunding): string => `${ex.env.url}/merchant/API/fundingDownload?id=${encodeURIComponent(file.id)}`

function fundingXml(ex: Exchange, file: StoredFunding): string {
  return el("Funding", [
    textEl("Filename", file.filename),
    textEl("ContractIdentifier", "SANDBOX-CONTRACT-0001"),
    ...(file.fundingType ? [textEl("FundingType", file.fundingType)] : []),
    el(
      "Shops",
      file.shops.map((shop) => textEl("Shop", shop))
    ),
    textEl("Acquirer", "SandboxAcquirer"),
    textEl("FundingDate", file.fundingDate),
    textEl("Amount", amountText(file)),
    textEl("CreatedDate", file.createdDate),
    textEl("DownloadLink", downloadLink(ex, file)),
  ])
}

export function fundingList(ex: Exchange, method: string, fields: Record<string, string>): Reply {
  const pageText = fields.page ?? "0"
  if (!/^\d{1,9}$/.test(pageText)) {
    return xml(200, apiResponse(method, ex.env.now(), [], { code: GatewayErrorCode.INVALID_PARAMETER, message: "page must be a whole number from 0." }))
  }
  const created = ex.env.fundings.settle(ex.env.store, ex.env.now())
  if (created.length > 0) ex.params = { ...ex.params, madeFundingFiles: created.map((file) => file.filename) }
  const { numberOfPages, files } = ex.env.fundings.page(Number(pageText))
  return xml(
    200,
    apiResponse(method, ex.env.now(), [
      el(
        "Fundings",
        files.map((file) => fundingXml(ex, file)),
        { numberOfPages: String(numberOfPages) }
      ),
    ])
  )
}

export function fundingDownload(ex: Exchange, fields: Record<string, string>): Reply {
  const file = fields.id === undefined ? undefined : ex.env.fundings.get(fields.id)
  if (!file) {
    return {
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8" },
      body: `No funding file with id ${fields.id ?? "(none)"}; take the DownloadLink from fundingList.`,
    }
  }
  return {
    status: 200,
    headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${file.filename.replace(/[^\w.-]/g, "_")}.csv"` },
    body: file.csv ?? "",
    ...(file.generated ? { stream: () => generatedCsvChunks(file.generated as GeneratedFundingSpec) } : {}),
  }
}
