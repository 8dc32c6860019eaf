// `tabbridge doctor`: checks each link of the chain and says which one is
// broken and how to fix it. Prints to stdout (a person reads it); exit 0 when
// everything needed works.
#pragma once

namespace tb {
int RunDoctor();
}
