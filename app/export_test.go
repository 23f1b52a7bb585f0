package app

// NewEmbedder is newEmbedder, for the black-box tests of package app_test.
var NewEmbedder = newEmbedder
