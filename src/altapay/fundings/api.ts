/**
 * Payouts: `fundingList` (merchant API, GET, 100 fundings a page) and `fundingDownload` (the
 * funding's DownloadLink, a CSV), both with the API user's Basic auth as AltaPay's PHP SDK sends
 * them. A download is read as it streams; its credentials go only to the gateway's own host.
 */
import { AltaPayBadResponseError, AltaPayGatewayError, AltaPayValidationError, errorForHttpStatus, snippet } from "../errors"
import { FundingFileError, readFundingFile } from "./csv"
import { FundingListShapeError, readFundingList } from "./list"
import type { FundingFileEntry, FundingListPage } from "./types"
import { apiUrl, readBody, type HttpTransport, type MerchantEndpoint } from "../http"
import { observeCall, type CallTally } from "../observer"
import { parseGatewayResponse } from "../xml"

const LIST_OPERATION = "GET /merchant/API/fundingList"
const DOWNLOAD_OPERATION = "GET /merchant/API/fundingDownload"
const MAX_PAGE = 1_000_000

export class FundingsApi {
  constructor(
    private readonly http: HttpTransport,
    private readonly endpoint: MerchantEndpoint
  ) {}

  /** One page of fundings, newest as AltaPay orders them; `page` 0 is the first (AltaPay's example). */
  async fundingList(input: { page?: number } = {}): Promise<FundingListPage> {
    const page = input.page ?? 0
    if (!Number.isSafeInteger(page) || page < 0 || page > MAX_PAGE) {
      throw new AltaPayValidationError(`The fundingList page must be a whole number from 0 (got ${String(page)}).`, [{ field: "page", message: "must be an integer >= 0" }])
    }
    return observeCall(
      this.http.observer,
      { operation: LIST_OPERATION },
      (tally) => this.listPage(page, tally),
      () => ({ outcome: "success" })
    )
  }

  private async listPage(page: number, tally: CallTally): Promise<FundingListPage> {
    const url = apiUrl(this.endpoint.base, "/merchant/API/fundingList")
    url.search = new URLSearchParams({ page: String(page) }).toString()
    const res = await this.http.request({
      tally,
      method: "GET",
      url,
      headers: { authorization: this.endpoint.authorization, accept: "application/xml, text/xml" },
      safeToRetry: true,
      operation: LIST_OPERATION,
    })
    if (res.status < 200 || res.status >= 300) throw errorForHttpStatus(res.status, res.body, LIST_OPERATION, false)
    const response = parseGatewayResponse(res.body, { status: res.status, operation: LIST_OPERATION })
    if (response.header.errorCode !== 0) {
      throw new AltaPayGatewayError(response.header.errorCode, response.header.errorMessage, { status: res.status, operation: LIST_OPERATION })
    }
    try {
      return { page, ...readFundingList(response.body, page) }
    } catch (error) {
      if (!(error instanceof FundingListShapeError)) throw error
      throw new AltaPayBadResponseError(`AltaPay answered fundingList with a page we cannot read: ${error.message}.`, {
        status: res.status,
        operation: LIST_OPERATION,
        bodySnippet: snippet(res.body),
      })
    }
  }

  /**
   * The lines of one funding file, read as they arrive (a file of any size never sits in memory
   * whole). Each entry is a read line or an issue naming its line number; stop early with
   * `break` and the download is dropped. `downloadLink` must be on the gateway's host: the API
   * user's credentials are sent with it, over the gateway's own scheme and port.
   */
  async *fundingDownload(downloadLink: string): AsyncGenerator<FundingFileEntry> {
    const url = this.downloadUrl(downloadLink)
    const res = await this.http.stream({ url, headers: { authorization: this.endpoint.authorization, accept: "text/csv, text/plain, */*" }, operation: DOWNLOAD_OPERATION })
    try {
      if (res.status < 200 || res.status >= 300) {
        throw errorForHttpStatus(res.status, await readBody(res.body).catch(() => ""), DOWNLOAD_OPERATION, false)
      }
      const type = String(res.headers["content-type"] ?? "")
      if (/xml|html|json/i.test(type)) {
        const body = await readBody(res.body).catch(() => "")
        throw new AltaPayBadResponseError(`AltaPay answered fundingDownload with ${type.split(";")[0]}, not a CSV funding file.`, {
          status: res.status,
          operation: DOWNLOAD_OPERATION,
          bodySnippet: snippet(body),
        })
      }
      try {
        yield* readFundingFile(res.body)
      } catch (error) {
        if (!(error instanceof FundingFileError)) throw error
        throw new AltaPayBadResponseError(`The funding file cannot be read: ${error.message}.`, { status: res.status, operation: DOWNLOAD_OPERATION })
      }
    } finally {
      res.cancel()
    }
  }

  private downloadUrl(downloadLink: string): URL {
    let link: URL
    try {
      link = new URL(String(downloadLink).trim())
    } catch {
      throw new AltaPayValidationError("The funding's DownloadLink is not a URL.", [{ field: "downloadLink", message: "must be an absolute URL" }])
    }
    if (link.hostname.toLowerCase() !== this.endpoint.base.hostname.toLowerCase()) {
      throw new AltaPayValidationError(
        `The DownloadLink's host ${link.hostname} is not the gateway's (${this.endpoint.base.hostname}); the API credentials are only sent to the gateway.`,
        [{ field: "downloadLink", message: "must be on the gateway's host" }]
      )
    }
    // AltaPay's documented examples link over http; the credentials still travel the gateway's way.
    link.protocol = this.endpoint.base.protocol
    link.port = this.endpoint.base.port
    return link
  }
}
