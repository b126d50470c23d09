// Package clientcmd is the command line that every Go interop client
// shares: its flags, the report, the scenario run and the exit status. A
// client command is its SDK's adapter (a constructor of scenario.Connect)
// plus a main that calls [Main].
package clientcmd
