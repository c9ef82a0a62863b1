package protocol

// EndpointOf is endpointOf, for the tests of package protocol_test.
var EndpointOf = endpointOf
