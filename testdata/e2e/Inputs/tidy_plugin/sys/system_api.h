// A system header (-isystem): its names are not the project's to fix.
#pragma once
inline int System_Helper() { return 1; }
inline int Unused_System_Helper() { return 3; }
