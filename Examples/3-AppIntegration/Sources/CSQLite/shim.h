// SQLite's C API, for Linux, where no SQLite3 module comes with the system (Apple platforms
// have `import SQLite3`). The headers are Debian's libsqlite3-dev.
#include <sqlite3.h>
