// `npm run docs:check`: every relative link and heading anchor in README.md, CHANGELOG.md, docs/ and
// the kit's README must resolve. Offline: no remote repository is looked up and external URLs are not fetched.
import remarkValidateLinks from "remark-validate-links"

export default { plugins: [[remarkValidateLinks, { repository: false }]] }
