package contract

// CheckContent exposes checkContent to the tests of this package.
var CheckContent = checkContent
