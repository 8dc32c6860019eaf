// `tabbridge browser`: which browser connect_browser {launch: true} would
// start here, and what this machine makes it do (install.sh's last line).
#pragma once

namespace tb {

int RunBrowser();

}  // namespace tb
