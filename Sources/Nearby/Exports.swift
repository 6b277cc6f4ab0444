// The device list, its folder and the errors are NearbyDevices' (which the chooser reads without
// linking TLS); an app importing Nearby gets them too.
@_exported import NearbyDevices
