package io.taskgate.web.admin;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** The context root ({@code /taskgate/}) redirects to the overview page. */
@WebServlet(urlPatterns = "")
public class RootRedirect extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    response.sendRedirect(request.getContextPath() + "/admin/overview.xhtml");
  }
}
