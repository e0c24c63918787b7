package com.example.shop;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/**
 * The shop's own JAX-RS application, at {@code /api} under the shop's context root, open to the
 * role {@code clerk} ({@code WEB-INF/web.xml}) of the shop's own users ({@code
 * com.example.shop.security}).
 */
@ApplicationPath("api")
public class ShopApi extends Application {}
