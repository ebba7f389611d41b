/** The dashboard's sections, in navigation order; each renders into <main>. */
import type { Session } from "../session.js"
import { charges } from "./charges.js"
import { compliance } from "./compliance.js"
import { disputes } from "./disputes.js"
import { events } from "./events.js"
import { fees } from "./fees.js"
import { keys } from "./keys.js"
import { overviewView } from "./overview.js"
import { processor } from "./processor.js"
import { refunds } from "./refunds.js"
import { webhooks } from "./webhooks.js"

export interface View {
  /** The hash path: `#/<path>/<rest…>`. */
  readonly path: string
  readonly title: string
  readonly render: (
    main: HTMLElement,
    session: Session,
    rest: ReadonlyArray<string>
  ) => Promise<void>
}

export const views: ReadonlyArray<View> = [
  { path: "overview", title: "Overview", render: overviewView },
  { path: "charges", title: "Charges", render: charges },
  { path: "refunds", title: "Refunds", render: refunds },
  { path: "disputes", title: "Disputes", render: disputes },
  { path: "webhooks", title: "Webhooks", render: webhooks },
  { path: "fees", title: "Fee configuration", render: fees },
  { path: "compliance", title: "Compliance", render: compliance },
  { path: "events", title: "Events", render: events },
  { path: "keys", title: "API keys", render: keys },
  { path: "processor", title: "Payment processor", render: processor }
]
