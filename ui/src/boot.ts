// The app's first import (main.tsx): before the router, React and the rest
// of the app are evaluated, it starts the signed-in first screen's api reads,
// so they travel while the route's code downloads (see early-requests.ts).
import { startEarlyRequests } from './early-requests'

startEarlyRequests()
