/**
 * What a finished learning-mode action (start or stop learning, register or ignore the detected tag)
 * waits to see in the live station data, which arrives 1–3 s after the call answered: until then the
 * row's buttons stay disabled, so a second click cannot act on the tag or state just handled.
 */
export type LearningAwait = { learning: boolean } | { handledTag: string }

/** The station fields the live data carries for learning mode. */
export interface LearningState {
  rfid_lernmodus: number
  pending_rfid?: { tag: string } | null
}

/** Whether the live data shows the outcome `awaiting` waits for (nothing awaited: true). */
export function learningSettled(awaiting: LearningAwait | undefined, station: LearningState): boolean {
  if (!awaiting) return true
  if ('learning' in awaiting) return station.rfid_lernmodus > 0 === awaiting.learning
  return station.pending_rfid?.tag !== awaiting.handledTag
}
