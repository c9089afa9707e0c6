/**
 * Funding (payout) samples copied from AltaPay's public documentation and AltaPay's PHP SDK: short
 * excerpts, each naming where it comes from. Where an excerpt was cut, its closing tags were added
 * and nothing else changed; where a sample needed an envelope, the comment says which and whose.
 * See the "Fundings" section of docs/altapay-wire-facts.md.
 */
import type { Sample } from "./samples"

const DOCS = "https://documentation.altapay.com"

/**
 * fundingList page, "XML response" (excerpt: the first Funding whole, with the whitespace around
 * its DownloadLink; the second Funding is cut in our copy and left out, its closing tags added).
 */
export const fundingListXml: Sample<string> = {
  source: `${DOCS}/Content/Ecom/API/API%20Methods/fundingList.htm (Examples: GET .../merchant/API/fundingList/?page=0, XML response)`,
  value: `<?xml version="1.0" encoding="utf-8" ?> <APIResponse version="20170228"> <Header> <Date>2020-09-29T12:34:56+02:00</Date> <Path>API/fundingList</Path> <ErrorCode>0</ErrorCode> <ErrorMessage></ErrorMessage> </Header> <Body> <Fundings numberOfPages="1"> <Funding> <Filename>TEST_SOAP_My_Company_2017-11-07_16_25_00_EUR</Filename> <ContractIdentifier>1234567890123456</ContractIdentifier> <FundingType>POS</FundingType> <Shops> <Shop>AltaPay Functional Test Shop</Shop> <Shop>AltaPay Functional Test Shop Two</Shop> </Shops> <Acquirer>TestAcquirer</Acquirer> <FundingDate>2010-09-26</FundingDate> <Amount>50.00 EUR</Amount> <CreatedDate>2010-09-27</CreatedDate> <DownloadLink> http://localhost/merchant.php/API/fundingDownload?id=1 </DownloadLink> </Funding> </Fundings> </Body> </APIResponse>`,
}

/**
 * AltaPay/sdk-php lib/response/AltapayAPIFunding.class.php, the Funding its doc comment shows
 * (no FundingType, one Shop, a zero Amount). The comment writes `<Amount>0.00 EUR<Amount>`; the
 * closing slash is added. The APIResponse envelope around it is the fundingList page's example.
 */
export const sdkPhpFundingXml: Sample<string> = {
  source: "AltaPay/sdk-php lib/response/AltapayAPIFunding.class.php (class doc comment); envelope from the fundingList page",
  value: `<?xml version="1.0" encoding="utf-8" ?><APIResponse version="20170228"><Header><Date>2020-09-29T12:34:56+02:00</Date><Path>API/fundingList</Path><ErrorCode>0</ErrorCode><ErrorMessage></ErrorMessage></Header><Body><Fundings numberOfPages="1"><Funding>
 <Filename>fundingDownloadTest</Filename>
 <ContractIdentifier>FunctionalTestContractID</ContractIdentifier>
 <Shops>
     <Shop>AltaPay Functional Test Shop</Shop>
 </Shops>
 <Acquirer>TestAcquirer</Acquirer>
 <FundingDate>2010-12-24</FundingDate>
 <Amount>0.00 EUR</Amount>
 <CreatedDate>2013-01-19</CreatedDate>
 <DownloadLink>http://gateway.dev.altapay.com/merchant.php/API/fundingDownload?id=1</DownloadLink>
</Funding></Fundings></Body></APIResponse>`,
}

/** The funding file's columns as the Gateway Services page lists them ("The format includes the following headers"). */
export const fundingFileHeaders: Sample<string[]> = {
  source: `${DOCS}/Content/Ecom/Concepts/Gateway%20Services.htm (One file format for payment methods with bulk payouts); same list on the fundingDownload page`,
  value: [
    "Date",
    "Type",
    "ID",
    "Reconciliation Identifier",
    "Payment",
    "Order",
    "Terminal",
    "Shop",
    "Transaction Currency",
    "Transaction Amount",
    "Exchange Rate",
    "Settlement Currency",
    "Settlement Amount",
    "Fixed Fee",
    "Fixed Fee VAT",
    "Rate Based Fee",
    "Rate Based Fee VAT",
  ],
}

/** fundingDownload page: the Type column's values, and "An exchange rate of 1 to 1 is represented by a value of 100". */
export const fundingDownloadColumns: Sample<{ types: string[]; dateFormat: string; oneToOneRate: string }> = {
  source: `${DOCS}/Content/Ecom/API/API%20Methods/fundingDownload.htm (column table)`,
  value: {
    types: ["payment", "refund", "adjustment", "rolling", "roundoff", "fee", "unknown", "payment_rejected", "refund_rejected"],
    dateFormat: "YYYY-MM-DD",
    oneToOneRate: "100",
  },
}
