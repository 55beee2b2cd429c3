// main.tsx's first import: before React, the router and the rest of the app
// are evaluated, it starts the signed-in first screen's api reads, so they
// travel while the route's code downloads (lib/early-requests.ts).
import { startEarlyRequests } from './lib/early-requests'

startEarlyRequests()
