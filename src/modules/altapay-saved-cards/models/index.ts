export { AltapaySavedCard } from "./saved-card"
