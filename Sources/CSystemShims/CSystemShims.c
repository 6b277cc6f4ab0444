// See include/CSystemShims.h.
